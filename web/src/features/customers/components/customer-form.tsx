import {
  CONTACT_CHANNEL_LABELS,
  CONTACT_CHANNELS,
  type Customer,
  type CustomerBody,
  customerBody,
} from '@coverdesk/contract';
import {
  Anchor,
  Button,
  Group,
  Input,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { FormSection, FULL_ROW } from '../../../components/form-section.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { ApiError } from '../../../lib/http.js';
import { useDevice } from '../../../lib/viewport.js';
import { AssigneeSelect, useMyId } from '../../team/components/assignee.js';
import { useSaveCustomer } from '../api.js';
import { CUSTOMER_STATUS_OPTIONS, CUSTOMER_TYPE_OPTIONS } from './customer-labels.js';
import { DuplicateWarning } from './duplicate-warning.js';

/** The assignee stays out until chosen: left out, a new customer is the creator's and an edit keeps its own. */
type CustomerFormValues = Required<Omit<CustomerBody, 'assigned_to'>> & {
  date_of_birth: string;
  assigned_to?: string | null;
};

const CONTACT_OPTIONS = CONTACT_CHANNELS.map((value) => ({ value, label: CONTACT_CHANNEL_LABELS[value] }));
const MAX_TAGS = 20;

function initialValues(customer: Customer | undefined, me: string): CustomerFormValues {
  return {
    // A new customer is assigned to whoever adds it, unless they choose another member.
    assigned_to: customer ? customer.assigned_to : me || undefined,
    customer_type: customer?.customer_type ?? 'individual',
    business_name: customer?.business_name ?? '',
    first_name: customer?.first_name ?? '',
    last_name: customer?.last_name ?? '',
    date_of_birth: customer?.date_of_birth ?? '',
    national_id: customer?.national_id ?? '',
    email: customer?.email ?? '',
    phone: customer?.phone ?? '',
    preferred_contact: customer?.preferred_contact ?? 'email',
    address_line: customer?.address_line ?? '',
    city: customer?.city ?? '',
    postal_code: customer?.postal_code ?? '',
    country: customer?.country ?? '',
    tags: customer?.tags ?? [],
    status: customer?.status ?? 'active',
    notes: customer?.notes ?? '',
  };
}

/**
 * What is checked and saved: the field the chosen type hides is dropped, while the form keeps it in
 * case the broker switches back.
 */
function forType(values: CustomerFormValues): CustomerFormValues {
  return values.customer_type === 'business'
    ? { ...values, date_of_birth: '' }
    : { ...values, business_name: '' };
}

const validateBody = zodValidate(customerBody);
const today = () => new Date().toISOString().slice(0, 10);

/** Adds a customer, or edits `customer`; then shows the saved customer. */
export function CustomerForm({ customer }: { customer?: Customer }) {
  const navigate = useNavigate();
  const phone = useDevice() === 'mobile';
  const typeLabel = useId();
  const save = useSaveCustomer(customer?.id);
  const form = useForm<CustomerFormValues>({
    initialValues: initialValues(customer, useMyId()),
    validate: (values) => validateBody(forType(values)),
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(forType(values));
    notifications.show({
      color: 'green',
      message: customer ? `${saved.display_name} saved.` : `${saved.display_name} added.`,
    });
    navigate(`/customers/${saved.id}`);
  });
  const business = form.values.customer_type === 'business';
  const overPlanLimit = save.error instanceof ApiError && save.error.status === 402;

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={880}>
        <Title order={2} fz="h4">
          {customer ? `Edit ${customer.display_name}` : 'New customer'}
        </Title>
        <FormSection legend="Who">
          <Stack gap={4} style={FULL_ROW}>
            <Input.Label id={typeLabel} labelElement="div">
              Customer type
            </Input.Label>
            <SegmentedControl
              aria-labelledby={typeLabel}
              data={CUSTOMER_TYPE_OPTIONS}
              fullWidth={phone}
              w={phone ? undefined : 'fit-content'}
              {...form.getInputProps('customer_type')}
            />
          </Stack>
          {business && (
            <TextInput
              label="Business name"
              required
              autoComplete="off"
              style={FULL_ROW}
              {...form.getInputProps('business_name')}
            />
          )}
          <TextInput
            label={business ? 'Contact first name' : 'First name'}
            required
            autoComplete="off"
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label={business ? 'Contact last name' : 'Last name'}
            required
            autoComplete="off"
            {...form.getInputProps('last_name')}
          />
          {!business && (
            <TextInput
              label="Date of birth"
              type="date"
              max={today()}
              {...form.getInputProps('date_of_birth')}
            />
          )}
          <TextInput
            label="National ID / Tax ID"
            description={
              business
                ? 'The company or tax registration number.'
                : 'As on their ID card or passport. Helps spot the same person entered twice.'
            }
            autoComplete="off"
            {...form.getInputProps('national_id')}
          />
        </FormSection>

        <FormSection legend="Contact">
          <TextInput label="Email" type="email" autoComplete="off" {...form.getInputProps('email')} />
          <TextInput label="Phone" type="tel" autoComplete="off" {...form.getInputProps('phone')} />
          <Select
            label="Preferred contact"
            description="How they like to hear from you about renewals and payments."
            data={CONTACT_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('preferred_contact')}
          />
        </FormSection>

        <FormSection legend="Address">
          <TextInput
            label="Address line"
            autoComplete="off"
            style={FULL_ROW}
            {...form.getInputProps('address_line')}
          />
          <TextInput label="City" autoComplete="off" {...form.getInputProps('city')} />
          <TextInput label="Postal code" autoComplete="off" {...form.getInputProps('postal_code')} />
          <TextInput label="Country" autoComplete="off" {...form.getInputProps('country')} />
        </FormSection>

        <FormSection legend="More">
          <AssigneeSelect
            value={form.values.assigned_to}
            onChange={(value) => form.setFieldValue('assigned_to', value)}
            currentName={customer?.assigned_to_name}
            error={form.errors.assigned_to as string | undefined}
          />
          <TagsInput
            label="Tags"
            description="Press Enter after each tag, e.g. VIP or Referral."
            maxTags={MAX_TAGS}
            splitChars={[',']}
            clearable
            {...form.getInputProps('tags')}
          />
          {customer && (
            <Select
              label="Status"
              description="Inactive customers keep their history but are no longer insured by you."
              data={CUSTOMER_STATUS_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('status')}
            />
          )}
          <Textarea
            label="Notes"
            autosize
            minRows={3}
            maxRows={10}
            style={FULL_ROW}
            {...form.getInputProps('notes')}
          />
        </FormSection>

        <DuplicateWarning
          email={form.values.email}
          phone={form.values.phone}
          nationalId={form.values.national_id}
          excludeId={customer?.id}
        />
        <FormError message={error}>
          {overPlanLimit && (
            <Anchor component={Link} to="/billing" display="block" mt={4} fz="sm" fw={600} c="inherit">
              See plans on the Billing page
            </Anchor>
          )}
        </FormError>
        <Group justify="flex-end" gap="sm" grow={phone}>
          <Button
            variant="default"
            component={Link}
            to={customer ? `/customers/${customer.id}` : '/customers'}
          >
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {customer ? 'Save changes' : 'Add customer'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
