import {
  isoDate,
  moneyInput,
  PAYMENT_FREQUENCIES,
  PAYMENT_FREQUENCY_LABELS,
  type Policy,
  renewalTerm,
  renewBody,
  scaledNetPremium,
  validField,
} from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCalendarCheck } from '@tabler/icons-react';
import { useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { formatDate } from '../../../lib/format.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { Money } from '../../../lib/money.js';
import { usePolicy, useRenewalPreview, useRenewPolicy } from '../api.js';
import { PolicyNumberWarning } from '../components/policy-number-warning.js';

const FREQUENCY_OPTIONS = PAYMENT_FREQUENCIES.filter((value) => value !== 'custom').map((value) => ({
  value,
  label: PAYMENT_FREQUENCY_LABELS[value],
}));

const validate = zodValidate(renewBody);

/** /policies/{id}/renew: the next term, starting the day after this one ends, as long and as priced. */
export function Component() {
  const { id = '' } = useParams();
  const policy = usePolicy(id);
  const insurers = useInsurerChoices();
  if (policy.isPending || insurers.isPending) return <DetailSkeleton />;
  if (policy.isError) {
    return (
      <ErrorState
        error={policy.error}
        onRetry={() => void policy.refetch()}
        back={{ to: '/policies', label: 'Back to policies' }}
      />
    );
  }
  const insurerRate = insurers.data
    ?.find((company) => company.id === policy.data.company_id)
    ?.policy_types.find((row) => row.policy_type_id === policy.data.policy_type_id)?.commission_percentage;
  return <RenewForm policy={policy.data} insurerRate={insurerRate} />;
}

/** `insurerRate`: what the insurer pays on the type today; without one, the term's own rate is offered. */
function RenewForm({ policy, insurerRate }: { policy: Policy; insurerRate: string | undefined }) {
  const navigate = useNavigate();
  const renew = useRenewPolicy(policy.id);
  // The same defaults as the server's: 1 Jan - 31 Dec renews to the next 31 Dec.
  const { start_date, end_date } = renewalTerm(policy);
  const form = useForm({
    initialValues: {
      policy_number: policy.policy_number,
      start_date,
      end_date,
      total_premium: policy.total_premium,
      net_premium: policy.net_premium,
      commission_percentage: insurerRate ?? policy.commission_percentage,
      payment_frequency: policy.payment_frequency,
    },
    validate,
  });
  // The net follows a changed premium in the same proportion until the broker types a net of their own.
  const netFollowsTotal = useRef(true);
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const renewed = await renew.mutateAsync(values);
    notifications.show({ color: 'green', message: `Policy ${renewed.policy_number} renewed.` });
    navigate(`/policies/${renewed.id}`);
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Card withBorder padding="lg" maw={760}>
        <Stack gap="sm">
          <Title order={2} fz="h4">
            Renew policy {policy.policy_number}
          </Title>
          <Text fz="sm" c="dimmed">
            {policy.customer_name} · {policy.company_name} · {policy.policy_type_name}. The new term is linked
            to this one, which then reads as renewed.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Policy number"
              description="Keep it, or enter the new number if the insurer issued one for this term."
              required
              {...form.getInputProps('policy_number')}
            />
            <TextInput type="date" label="Starts" required {...form.getInputProps('start_date')} />
            <TextInput type="date" label="Ends" required {...form.getInputProps('end_date')} />
            {policy.payment_frequency !== 'custom' && (
              <Select
                label="Payment"
                data={FREQUENCY_OPTIONS}
                allowDeselect={false}
                {...form.getInputProps('payment_frequency')}
              />
            )}
          </SimpleGrid>
          <EarlyEndNotice policy={policy} start={form.values.start_date} />
          {form.values.policy_number.trim() !== policy.policy_number && (
            <PolicyNumberWarning policyNumber={form.values.policy_number} />
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="Total premium"
              required
              inputMode="decimal"
              {...form.getInputProps('total_premium')}
              onChange={(event) => {
                const total = event.currentTarget.value;
                form.setFieldValue('total_premium', total);
                const valid = validField(moneyInput, total);
                if (netFollowsTotal.current && valid) {
                  form.setFieldValue(
                    'net_premium',
                    scaledNetPremium(policy.net_premium, policy.total_premium, valid),
                  );
                }
              }}
            />
            <TextInput
              label="Net premium"
              required
              inputMode="decimal"
              description="The commission base; follows a new premium in proportion."
              {...form.getInputProps('net_premium')}
              onChange={(event) => {
                netFollowsTotal.current = false;
                form.setFieldValue('net_premium', event.currentTarget.value);
              }}
            />
            <TextInput
              label="Commission (%)"
              required
              inputMode="decimal"
              description={
                insurerRate
                  ? `${policy.company_name}'s rate for this type today.`
                  : `This term's rate: ${policy.company_name} no longer lists this type.`
              }
              {...form.getInputProps('commission_percentage')}
            />
          </SimpleGrid>
          <FormError message={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to={`/policies/${policy.id}`}>
              Cancel
            </Button>
            <Button type="submit" loading={renew.isPending}>
              Renew policy
            </Button>
          </Group>
        </Stack>
      </Card>
    </form>
  );
}

/**
 * Before saving, what a renewal starting on or before the term's end does to the term: it ends the day
 * before and earns for its days of cover (docs/figures.md), as the server works it out. Nothing shows
 * for a renewal from after the end, or for a start the server would refuse anyway.
 */
function EarlyEndNotice({ policy, start }: { policy: Policy; start: string }) {
  const day = validField(isoDate, start);
  const endsEarly = day !== undefined && day <= policy.end_date && day > policy.start_date;
  const preview = useRenewalPreview(policy.id, endsEarly ? day : undefined);
  if (!endsEarly) return null;
  const title = 'This term will end early';
  if (preview.isPending) {
    return (
      <Alert color="yellow" icon={<Loader size={16} />} title={title}>
        <Text fz="sm">Working out what this term earns to the renewal's start…</Text>
      </Alert>
    );
  }
  if (preview.isError) {
    return (
      <Alert color="red" title={title}>
        <Text fz="sm">
          The renewal starts before {formatDate(policy.end_date)}, so this term will end the day before it.
          What it then earns could not be worked out: {errorText(preview.error)}
        </Text>
      </Alert>
    );
  }
  const { ends_on, earned_premium, expected_commission } = preview.data;
  return (
    <Alert color="yellow" icon={<IconCalendarCheck size={18} aria-hidden />} title={title}>
      <Text fz="sm">
        The current term will end on {ends_on ? formatDate(ends_on) : formatDate(policy.end_date)}, the day
        before the renewal starts, and earn <Money amount={earned_premium} /> of its{' '}
        <Money amount={policy.total_premium} /> premium and <Money amount={expected_commission} /> commission,
        for its days of cover. Its instalments due after that day are cancelled; what the customer has paid
        stays paid.
      </Text>
    </Alert>
  );
}
