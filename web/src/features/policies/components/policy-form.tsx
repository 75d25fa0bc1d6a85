import {
  buildSchedule,
  PAYMENT_FREQUENCIES,
  PAYMENT_FREQUENCY_LABELS,
  type PaymentFrequency,
  type Policy,
  type PolicyBody,
  policyBody,
  termEnd,
} from '@coverdesk/contract';
import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  type TextInputProps,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { Money } from '../../../lib/money.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { useCan } from '../../../lib/use-can.js';
import { useMembers } from '../../team/api.js';
import { AssigneeSelect, useMyId } from '../../team/components/assignee.js';
import { useCustomerChoices, useSavePolicy } from '../api.js';
import { type PolicyPrefill, policyPrefill } from '../prefill.js';
import { PolicyNumberWarning } from './policy-number-warning.js';

type PolicyFormValues = {
  policy_number: string;
  customer_id: string;
  company_id: string;
  policy_type_id: string;
  start_date: string;
  end_date: string;
  total_premium: string;
  net_premium: string;
  commission_percentage: string;
  payment_frequency: PaymentFrequency;
  custom_installments: number | string;
  insured_item: string;
  sum_insured: string;
  deductible: string;
  notes: string;
  /** Left out until chosen (a new policy is the creator's); null for no one. */
  assigned_to?: string | null;
  /** The producer's own share, "" for their default; left out for a role that may not set it. */
  producer_split_percentage?: string;
};

const FREQUENCY_OPTIONS = PAYMENT_FREQUENCIES.map((value) => ({
  value,
  label: PAYMENT_FREQUENCY_LABELS[value],
}));

/** A year's cover: 1 March to the last day of February. */
const oneYearFrom = (start: string): string => termEnd(start, 12);

function initialValues(
  today: string,
  me: string,
  setsShare: boolean,
  policy?: Policy,
  prefill?: PolicyPrefill,
): PolicyFormValues {
  const start = policy?.start_date ?? today;
  return {
    assigned_to: policy ? policy.assigned_to : me || undefined,
    ...(setsShare ? { producer_split_percentage: policy?.producer_split_percentage ?? '' } : {}),
    policy_number: policy?.policy_number ?? '',
    customer_id: policy?.customer.id ?? prefill?.customer_id ?? '',
    company_id: policy?.company_id ?? '',
    policy_type_id: policy?.policy_type_id ?? prefill?.policy_type_id ?? '',
    start_date: start,
    end_date: policy?.end_date ?? oneYearFrom(start),
    total_premium: policy?.total_premium ?? prefill?.total_premium ?? '',
    // A net premium equal to the total was most likely left blank: keep it following the total.
    net_premium: policy && policy.net_premium !== policy.total_premium ? policy.net_premium : '',
    commission_percentage: policy?.commission_percentage ?? '',
    payment_frequency: policy?.payment_frequency ?? 'single',
    custom_installments: policy?.custom_installments ?? '',
    insured_item: policy?.insured_item ?? '',
    sum_insured: policy?.sum_insured ?? '',
    deductible: policy?.deductible ?? '',
    notes: policy?.notes ?? '',
  };
}

/** What is sent: blank optional fields are left out rather than sent empty. */
function toBody(values: PolicyFormValues): PolicyBody {
  const optional = (value: string | number) => (value === '' ? undefined : String(value));
  return {
    ...values,
    net_premium: optional(values.net_premium),
    commission_percentage: optional(values.commission_percentage),
    custom_installments:
      values.payment_frequency === 'custom' && values.custom_installments !== ''
        ? Number(values.custom_installments)
        : undefined,
    sum_insured: optional(values.sum_insured) ?? null,
    deductible: optional(values.deductible) ?? null,
    // Blank gives the producer's default share back; left out, the policy keeps its own.
    producer_split_percentage:
      values.producer_split_percentage === undefined
        ? undefined
        : (optional(values.producer_split_percentage) ?? null),
  };
}

const validateBody = zodValidate(policyBody);

/** Records a policy, or edits `policy`: the insurer first, then only the types it sells, its rate pre-filled. */
export function PolicyForm({ policy }: { policy?: Policy }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const save = useSavePolicy(policy?.id);
  const insurers = useInsurerChoices();
  const [customerSearch, setCustomerSearch] = useState('');
  const [search] = useDebouncedValue(customerSearch, 300);
  const customers = useCustomerChoices(search);
  const today = useAgencyToday();
  const me = useMyId();
  // A producer's own share is the team's business, as their default share is (owners and managers).
  const setsShare = useCan('team');
  const form = useForm<PolicyFormValues>({
    initialValues: initialValues(
      today,
      me,
      setsShare,
      policy,
      policy ? undefined : policyPrefill(searchParams),
    ),
    validate: (values) => validateBody(toBody(values)),
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(toBody(values));
    notifications.show({ color: 'green', message: `Policy ${saved.policy_number} saved.` });
    navigate(`/policies/${saved.id}`);
  });

  const insurer = insurers.data?.find((company) => company.id === form.values.company_id);
  // A type brought in the address (from a lead) waits for an insurer that sells it: say which.
  const wantedType = insurer
    ? undefined
    : insurers.data
        ?.flatMap((company) => company.policy_types)
        .find((rate) => rate.policy_type_id === form.values.policy_type_id);
  const customerOptions = (customers.data ?? []).map((customer) => ({
    value: customer.id,
    label: customer.display_name,
  }));
  if (policy && !customerOptions.some((option) => option.value === policy.customer.id)) {
    customerOptions.unshift({ value: policy.customer.id, label: policy.customer_name });
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack maw={900}>
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {policy ? `Edit policy ${policy.policy_number}` : 'New policy'}
            </Title>
            <Select
              label="Customer"
              required
              searchable
              placeholder="Type a name to search"
              data={customerOptions}
              searchValue={customerSearch}
              onSearchChange={setCustomerSearch}
              nothingFoundMessage="No customer by that name"
              filter={({ options }) => options}
              {...form.getInputProps('customer_id')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <Select
                label="Insurer"
                required
                placeholder="Choose the insurer"
                data={(insurers.data ?? []).map((company) => ({ value: company.id, label: company.name }))}
                {...form.getInputProps('company_id')}
                onChange={(companyId) => {
                  form.setFieldValue('company_id', companyId ?? '');
                  // A type chosen already (or brought from a lead) stays if this insurer sells it too.
                  const company = insurers.data?.find((row) => row.id === companyId);
                  const rate = company?.policy_types.find(
                    (row) => row.policy_type_id === form.values.policy_type_id,
                  );
                  form.setFieldValue('policy_type_id', rate ? rate.policy_type_id : '');
                  if (rate) form.setFieldValue('commission_percentage', rate.commission_percentage);
                }}
              />
              <Select
                label="Policy type"
                required
                disabled={!insurer}
                placeholder={insurer ? 'Choose what it sells' : 'Choose the insurer first'}
                description={
                  wantedType && `Interested in ${wantedType.name}: choose an insurer that sells it.`
                }
                data={(insurer?.policy_types ?? []).map((rate) => ({
                  value: rate.policy_type_id,
                  label: rate.custom_name || rate.name,
                }))}
                {...form.getInputProps('policy_type_id')}
                onChange={(typeId) => {
                  form.setFieldValue('policy_type_id', typeId ?? '');
                  const rate = insurer?.policy_types.find((row) => row.policy_type_id === typeId);
                  if (rate) form.setFieldValue('commission_percentage', rate.commission_percentage);
                }}
              />
              <TextInput label="Policy number" required {...form.getInputProps('policy_number')} />
              <TextInput
                label="Insured item"
                placeholder="e.g. Toyota Corolla 2022"
                {...form.getInputProps('insured_item')}
              />
              <TextInput
                type="date"
                label="Starts"
                required
                {...form.getInputProps('start_date')}
                onChange={(event) => {
                  const start = event.currentTarget.value;
                  form.setFieldValue('start_date', start);
                  if (start && !policy) form.setFieldValue('end_date', oneYearFrom(start));
                }}
              />
              <TextInput type="date" label="Ends" required {...form.getInputProps('end_date')} />
            </SimpleGrid>
            <PolicyNumberWarning policyNumber={form.values.policy_number} excludeId={policy?.id} />
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Premium and commission
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label="Total premium"
                required
                inputMode="decimal"
                {...form.getInputProps('total_premium')}
              />
              <TextInput
                label="Net premium"
                inputMode="decimal"
                description="The commission base, without taxes and fees. Blank: the total."
                {...form.getInputProps('net_premium')}
              />
              <TextInput
                label="Commission (%)"
                inputMode="decimal"
                description="The insurer's rate for this type, unless you change it."
                {...form.getInputProps('commission_percentage')}
              />
              <Select
                label="Payment"
                required
                data={FREQUENCY_OPTIONS}
                allowDeselect={false}
                {...form.getInputProps('payment_frequency')}
              />
              {form.values.payment_frequency === 'custom' && (
                <NumberInput
                  label="Number of instalments"
                  required
                  min={1}
                  max={120}
                  {...form.getInputProps('custom_installments')}
                />
              )}
              <TextInput label="Sum insured" inputMode="decimal" {...form.getInputProps('sum_insured')} />
              <TextInput label="Deductible" inputMode="decimal" {...form.getInputProps('deductible')} />
            </SimpleGrid>
            <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
            <SimpleGrid cols={{ base: 1, sm: setsShare ? 2 : 1 }} spacing="sm">
              <AssigneeSelect
                value={form.values.assigned_to}
                onChange={(value) => form.setFieldValue('assigned_to', value)}
                currentName={policy?.assigned_to_name}
                error={form.errors.assigned_to as string | undefined}
              />
              {setsShare && (
                <ProducerShareInput
                  producerId={form.values.assigned_to}
                  {...form.getInputProps('producer_split_percentage')}
                />
              )}
            </SimpleGrid>
          </Stack>
        </Card>
        <SchedulePreview values={form.values} />
        <FormError message={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" component={Link} to={policy ? `/policies/${policy.id}` : '/policies'}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {policy ? 'Save changes' : 'Add policy'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The instalments the premium will be split into, before saving. */
/** The assignee's share of this policy's commission; blank, their default share, which it shows. */
function ProducerShareInput({
  producerId,
  ...input
}: { producerId: string | null | undefined } & TextInputProps) {
  const members = useMembers();
  const producer = members.data?.find((member) => member.id === producerId);
  return (
    <TextInput
      label="Producer's share (%)"
      inputMode="decimal"
      description="Leave empty to use the producer's default share."
      placeholder={producer ? `Default: ${producer.commission_split_percentage}` : undefined}
      {...input}
    />
  );
}

function SchedulePreview({ values }: { values: PolicyFormValues }) {
  const parsed = policyBody.safeParse(
    toBody({ ...values, customer_id: ZERO, company_id: ZERO, policy_type_id: ZERO, policy_number: 'x' }),
  );
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="sm">
        Instalments
      </Title>
      {parsed.success ? (
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>Due</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {buildSchedule(parsed.data).map((row) => (
                <Table.Tr key={row.sequence}>
                  <Table.Td>{row.sequence}</Table.Td>
                  <Table.Td>{formatDate(row.due_date)}</Table.Td>
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    <Money amount={row.amount_due} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" fz="sm">
          Enter the term and the premium to see how it will be split.
        </Text>
      )}
    </Card>
  );
}

/** A placeholder id, so the preview can check the terms before anyone is chosen. */
const ZERO = '00000000-0000-7000-8000-000000000000';
