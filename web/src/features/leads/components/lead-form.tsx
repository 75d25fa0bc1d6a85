import { type Lead, type LeadBody, leadBody } from '@coverdesk/contract';
import { Anchor, Button, Group, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { FormSection, FULL_ROW } from '../../../components/form-section.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { ApiError } from '../../../lib/http.js';
import { fromLocalInput, toLocalInput } from '../../../lib/local-moment.js';
import { useDevice } from '../../../lib/viewport.js';
import { useAssignees, usePolicyTypeChoices, useSaveLead } from '../api.js';
import { LEAD_SOURCE_OPTIONS, LEAD_STATUS_OPTIONS } from './lead-labels.js';
import { LeadMatchWarning } from './lead-match-warning.js';

type LeadFormValues = {
  first_name: string;
  last_name: string;
  business_name: string;
  email: string;
  phone: string;
  source: string;
  policy_type_id: string | null;
  estimated_premium: string;
  status: string;
  lost_reason: string;
  /** On the broker's clock, as the date-and-time input holds it. */
  next_follow_up_at: string;
  assigned_user_id: string | null;
  notes: string;
};

function initialValues(lead?: Lead): LeadFormValues {
  return {
    first_name: lead?.first_name ?? '',
    last_name: lead?.last_name ?? '',
    business_name: lead?.business_name ?? '',
    email: lead?.email ?? '',
    phone: lead?.phone ?? '',
    source: lead?.source ?? 'referral',
    policy_type_id: lead?.policy_type_id ?? null,
    estimated_premium: lead?.estimated_premium ?? '',
    status: lead?.status ?? 'new',
    lost_reason: lead?.lost_reason ?? '',
    next_follow_up_at: toLocalInput(lead?.next_follow_up_at ?? null),
    assigned_user_id: lead?.assigned_user_id ?? null,
    notes: lead?.notes ?? '',
  };
}

/** What is checked and sent: blanks as nothing, the follow-up as a moment. */
const toBody = (values: LeadFormValues): LeadBody =>
  ({
    ...values,
    estimated_premium: values.estimated_premium.trim() === '' ? null : values.estimated_premium,
    next_follow_up_at: fromLocalInput(values.next_follow_up_at),
    lost_reason: values.status === 'lost' ? values.lost_reason : '',
  }) as LeadBody;

const validateBody = zodValidate(leadBody);

/** Adds a lead, or edits `lead`; then shows the saved lead. */
export function LeadForm({ lead }: { lead?: Lead }) {
  const navigate = useNavigate();
  const phone = useDevice() === 'mobile';
  const save = useSaveLead(lead?.id);
  const types = usePolicyTypeChoices();
  const assignees = useAssignees();
  const form = useForm<LeadFormValues>({
    initialValues: initialValues(lead),
    validate: (values) => validateBody(toBody(values)),
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(toBody(values));
    notifications.show({
      color: 'green',
      message: lead ? `${saved.display_name} saved.` : `${saved.display_name} added.`,
    });
    navigate(`/leads/${saved.id}`);
  });
  const overPlanLimit = save.error instanceof ApiError && save.error.status === 402;
  const typeOptions = [
    ...(types.data ?? []).map((type) => ({ value: type.id, label: type.name })),
    // A type made inactive since stays readable on the lead that chose it.
    ...(lead?.policy_type_id && !types.data?.some((type) => type.id === lead.policy_type_id)
      ? [{ value: lead.policy_type_id, label: lead.policy_type_name }]
      : []),
  ];

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={880}>
        <Title order={2} fz="h4">
          {lead ? `Edit ${lead.display_name}` : 'New lead'}
        </Title>
        <FormSection legend="Who">
          <TextInput
            label="First name"
            description="With the last name, unless the lead is a business."
            autoComplete="off"
            {...form.getInputProps('first_name')}
          />
          <TextInput label="Last name" autoComplete="off" {...form.getInputProps('last_name')} />
          <TextInput
            label="Business name"
            description="For a business; the names above are then the person to speak to."
            autoComplete="off"
            style={FULL_ROW}
            {...form.getInputProps('business_name')}
          />
          <TextInput label="Email" type="email" autoComplete="off" {...form.getInputProps('email')} />
          <TextInput label="Phone" type="tel" autoComplete="off" {...form.getInputProps('phone')} />
        </FormSection>

        <FormSection legend="Opportunity">
          <Select
            label="Source"
            description="How they found you."
            data={LEAD_SOURCE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('source')}
          />
          <Select
            label="Interested in"
            placeholder={types.isPending ? 'Loading policy types…' : 'Choose a policy type'}
            data={typeOptions}
            clearable
            searchable
            nothingFoundMessage="No policy type by that name"
            {...form.getInputProps('policy_type_id')}
          />
          <TextInput
            label="Estimated premium"
            description="The yearly premium you expect to write, e.g. 1250.00."
            inputMode="decimal"
            autoComplete="off"
            {...form.getInputProps('estimated_premium')}
          />
          <Select
            label="Status"
            data={LEAD_STATUS_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('status')}
          />
          {form.values.status === 'lost' && (
            <TextInput
              label="Why was it lost?"
              required
              autoComplete="off"
              style={FULL_ROW}
              {...form.getInputProps('lost_reason')}
            />
          )}
        </FormSection>

        <FormSection legend="Follow-up">
          <TextInput
            label="Next follow-up"
            description="When you mean to get back to them."
            type="datetime-local"
            {...form.getInputProps('next_follow_up_at')}
          />
          <Select
            label="Assigned to"
            placeholder="Nobody yet"
            data={(assignees.data ?? []).map((user) => ({ value: user.id, label: user.name || user.email }))}
            clearable
            {...form.getInputProps('assigned_user_id')}
          />
          <Textarea
            label="Notes"
            autosize
            minRows={3}
            maxRows={10}
            style={FULL_ROW}
            {...form.getInputProps('notes')}
          />
        </FormSection>

        <LeadMatchWarning email={form.values.email} phone={form.values.phone} excludeId={lead?.id} />
        <FormError message={error}>
          {overPlanLimit && (
            <Anchor component={Link} to="/billing" display="block" mt={4} fz="sm" fw={600} c="inherit">
              See plans on the Billing page
            </Anchor>
          )}
        </FormError>
        <Group justify="flex-end" gap="sm" grow={phone}>
          <Button variant="default" component={Link} to={lead ? `/leads/${lead.id}` : '/leads'}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {lead ? 'Save changes' : 'Add lead'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
