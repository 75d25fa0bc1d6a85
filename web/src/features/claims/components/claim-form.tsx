import {
  approvedAboveClaimed,
  CLAIM_TYPE_LABELS,
  CLAIM_TYPES,
  type ClaimBody,
  type ClaimDetail,
  type ClaimType,
  claimBodyOn,
  INCIDENT_OUTSIDE_TERM,
  moneyInput,
  validField,
} from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { formatDate } from '../../../lib/format.js';
import { ApiError } from '../../../lib/http.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { AssigneeSelect, useMyId } from '../../team/components/assignee.js';
import { usePolicyChoice, usePolicyChoices, useSaveClaim } from '../api.js';

type ClaimFormValues = {
  policy_id: string;
  claim_number: string;
  insurer_reference: string;
  incident_date: string;
  reported_date: string;
  claim_type: ClaimType | '';
  description: string;
  location: string;
  amount_claimed: string;
  amount_approved: string;
  amount_paid: string;
  adjuster_name: string;
  adjuster_phone: string;
  adjuster_email: string;
  /** Left out until chosen (a new claim is the creator's); null for no one. */
  assigned_to?: string | null;
};

const TYPE_OPTIONS = CLAIM_TYPES.map((value) => ({ value, label: CLAIM_TYPE_LABELS[value] }));

function initialValues(today: string, me: string, claim?: ClaimDetail, policyId = ''): ClaimFormValues {
  return {
    assigned_to: claim ? claim.assigned_to : me || undefined,
    policy_id: claim?.policy.id ?? policyId,
    claim_number: claim?.claim_number ?? '',
    insurer_reference: claim?.insurer_reference ?? '',
    incident_date: claim?.incident_date ?? '',
    reported_date: claim?.reported_date ?? today,
    claim_type: claim?.claim_type ?? '',
    description: claim?.description ?? '',
    location: claim?.location ?? '',
    amount_claimed: claim?.amount_claimed ?? '',
    amount_approved: claim?.amount_approved ?? '',
    amount_paid: claim && claim.amount_paid !== '0.00' ? claim.amount_paid : '',
    adjuster_name: claim?.adjuster_name ?? '',
    adjuster_phone: claim?.adjuster_phone ?? '',
    adjuster_email: claim?.adjuster_email ?? '',
  };
}

/** What is sent: a blank paid amount is nothing paid, a blank approved amount none decided yet. */
function toBody(values: ClaimFormValues, confirmOutsideTerm = false): ClaimBody {
  return {
    ...values,
    claim_type: values.claim_type as ClaimType,
    amount_approved: values.amount_approved || null,
    amount_paid: values.amount_paid || '0',
    confirm_outside_term: confirmOutsideTerm,
  };
}

/** The 409 the API answers for an incident outside the policy's term, until the broker confirms. */
function outsideTermWarning(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { code?: string; policy_start?: string; policy_end?: string } | null;
  if (body?.code !== INCIDENT_OUTSIDE_TERM) return null;
  return `The incident date is outside the policy's term (${formatDate(body.policy_start)} – ${formatDate(body.policy_end)}). Check it, or save it anyway.`;
}

/** Reports a claim on a policy, or edits `claim`; the policy comes preset from `?policy_id=`. */
export function ClaimForm({ claim }: { claim?: ClaimDetail }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const save = useSaveClaim(claim?.id);
  const today = useAgencyToday();
  const presetPolicyId = claim ? '' : (searchParams.get('policy_id') ?? '');
  const me = useMyId();
  const [policySearch, setPolicySearch] = useState('');
  const [search] = useDebouncedValue(policySearch, 300);
  const policies = usePolicyChoices(search);
  const preset = usePolicyChoice(presetPolicyId);
  const [outsideTerm, setOutsideTerm] = useState<string | null>(null);
  // The contract's rules, with the dates checked against the agency's today as the server checks them.
  const validateBody = useMemo(() => zodValidate(claimBodyOn(today)), [today]);
  const form = useForm<ClaimFormValues>({
    initialValues: initialValues(today, me, claim, presetPolicyId),
    validate: (values) => validateBody(toBody(values)),
  });

  const submit = async (values: ClaimFormValues, confirmOutsideTerm: boolean) => {
    try {
      const saved = await save.mutateAsync(toBody(values, confirmOutsideTerm));
      notifications.show({ color: 'green', message: `Claim ${saved.claim_number} saved.` });
      navigate(`/claims/${saved.id}`);
    } catch (error) {
      const warning = outsideTermWarning(error);
      if (!warning) throw error;
      setOutsideTerm(warning);
    }
  };
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    setOutsideTerm(null);
    await submit(values, false);
  });
  const confirm = useFormSubmit(form, (values) => submit(values, true));

  const options = (policies.data ?? []).map((policy) => ({
    value: policy.id,
    label: `${policy.policy_number} · ${policy.customer_name}`,
  }));
  const known = [
    ...(claim
      ? [{ value: claim.policy.id, label: `${claim.policy.policy_number} · ${claim.customer.name}` }]
      : []),
    ...(preset.data
      ? [{ value: preset.data.id, label: `${preset.data.policy_number} · ${preset.data.customer_name}` }]
      : []),
  ];
  for (const option of known) {
    if (!options.some((candidate) => candidate.value === option.value)) options.unshift(option);
  }
  const chosen =
    policies.data?.find((policy) => policy.id === form.values.policy_id) ??
    (preset.data?.id === form.values.policy_id ? preset.data : undefined);
  const term = chosen
    ? { start: chosen.start_date, end: chosen.end_date }
    : claim?.policy.id === form.values.policy_id
      ? { start: claim.policy.start_date, end: claim.policy.end_date }
      : undefined;
  const incident = form.values.incident_date;
  const incidentOutside = Boolean(term && incident && (incident < term.start || incident > term.end));
  // Approving and paying are moves on the claim's page; an edit only corrects what they recorded.
  const recordedApproval = claim?.amount_approved != null;
  const recordedPayment = claim !== undefined && claim.amount_paid !== '0.00';
  // Compared as the API will read them ("1,200" is 1200.00); an amount not yet readable warns of nothing.
  const generous = approvedAboveClaimed({
    amount_claimed: validField(moneyInput, form.values.amount_claimed) ?? null,
    amount_approved: validField(moneyInput, form.values.amount_approved) ?? null,
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack maw={900}>
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {claim ? `Edit claim ${claim.claim_number}` : 'New claim'}
            </Title>
            <Select
              label="Policy"
              required
              searchable
              placeholder="Type a policy number or customer name"
              data={options}
              searchValue={policySearch}
              onSearchChange={setPolicySearch}
              nothingFoundMessage="No policy matches"
              filter={({ options: all }) => all}
              description={
                term
                  ? `Term ${formatDate(term.start)} – ${formatDate(term.end)}`
                  : 'The customer follows from it.'
              }
              {...form.getInputProps('policy_id')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label="Claim number"
                placeholder={claim ? undefined : 'Given automatically'}
                description={claim ? undefined : 'Leave blank for the next CLM number.'}
                {...form.getInputProps('claim_number')}
              />
              <TextInput label="Insurer's reference" {...form.getInputProps('insurer_reference')} />
              <Select
                label="Type"
                required
                placeholder="What happened"
                data={TYPE_OPTIONS}
                {...form.getInputProps('claim_type')}
              />
              <TextInput
                label="Location"
                placeholder="Where it happened"
                {...form.getInputProps('location')}
              />
              <TextInput
                type="date"
                label="Incident date"
                required
                max={today}
                {...form.getInputProps('incident_date')}
              />
              <TextInput
                type="date"
                label="Reported on"
                required
                max={today}
                {...form.getInputProps('reported_date')}
              />
            </SimpleGrid>
            {incidentOutside && term && (
              <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
                The incident date is outside the policy's term ({formatDate(term.start)} –{' '}
                {formatDate(term.end)}); you will be asked to confirm it.
              </Alert>
            )}
            <Textarea label="Description" autosize minRows={3} {...form.getInputProps('description')} />
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Amounts
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label="Amount claimed"
                required
                inputMode="decimal"
                {...form.getInputProps('amount_claimed')}
              />
              {recordedApproval && (
                <TextInput
                  label="Amount approved"
                  inputMode="decimal"
                  description="A correction of what the insurer approved."
                  {...form.getInputProps('amount_approved')}
                />
              )}
              {recordedPayment && (
                <TextInput
                  label="Paid by the insurer"
                  inputMode="decimal"
                  description="Never more than approved."
                  {...form.getInputProps('amount_paid')}
                />
              )}
            </SimpleGrid>
            {!(recordedApproval && recordedPayment) && (
              <Text fz="sm" c="dimmed">
                What the insurer approves and pays is recorded as the claim moves on its page: Approve, then
                Record payment.
              </Text>
            )}
            {generous && (
              <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
                The approved amount is more than the amount claimed. Check it before saving.
              </Alert>
            )}
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Adjuster
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput label="Name" {...form.getInputProps('adjuster_name')} />
              <TextInput label="Phone" type="tel" {...form.getInputProps('adjuster_phone')} />
              <TextInput label="Email" type="email" {...form.getInputProps('adjuster_email')} />
            </SimpleGrid>
            <AssigneeSelect
              value={form.values.assigned_to}
              onChange={(value) => form.setFieldValue('assigned_to', value)}
              currentName={claim?.assigned_to_name}
              error={form.errors.assigned_to as string | undefined}
            />
          </Stack>
        </Card>
        {outsideTerm && (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="Incident outside the policy's term"
            role="alert"
          >
            <Stack gap="xs" align="flex-start">
              <Text fz="sm">{outsideTerm}</Text>
              <Button size="xs" onClick={() => confirm.onSubmit()} loading={save.isPending}>
                Save anyway
              </Button>
            </Stack>
          </Alert>
        )}
        <FormError message={error ?? confirm.error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" component={Link} to={claim ? `/claims/${claim.id}` : '/claims'}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {claim ? 'Save changes' : 'Report claim'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
