import { PAYMENT_FREQUENCIES, PAYMENT_FREQUENCY_LABELS, type Policy, renewalTerm } from '@coverdesk/contract';
import { Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate, useParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { useFormSubmit } from '../../../lib/form.js';
import { usePolicy, useRenewPolicy } from '../api.js';

const FREQUENCY_OPTIONS = PAYMENT_FREQUENCIES.filter((value) => value !== 'custom').map((value) => ({
  value,
  label: PAYMENT_FREQUENCY_LABELS[value],
}));

/** /policies/{id}/renew: the next term, starting the day after this one ends, as long and as priced. */
export function Component() {
  const { id = '' } = useParams();
  const policy = usePolicy(id);
  if (policy.isPending) return <DetailSkeleton />;
  if (policy.isError) return <ErrorState error={policy.error} onRetry={() => void policy.refetch()} />;
  return <RenewForm policy={policy.data} />;
}

function RenewForm({ policy }: { policy: Policy }) {
  const navigate = useNavigate();
  const renew = useRenewPolicy(policy.id);
  // The same default as the server's: 1 Jan - 31 Dec renews to the next 31 Dec.
  const { start_date, end_date } = renewalTerm(policy);
  const form = useForm({
    initialValues: {
      policy_number: policy.policy_number,
      start_date,
      end_date,
      total_premium: policy.total_premium,
      payment_frequency: policy.payment_frequency,
    },
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    // An unchanged premium is left out, so the server keeps the net premium as well.
    const { total_premium, ...terms } = values;
    const renewed = await renew.mutateAsync(
      total_premium === policy.total_premium ? terms : { ...terms, total_premium },
    );
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
            <TextInput label="Policy number" required {...form.getInputProps('policy_number')} />
            <TextInput
              label="Total premium"
              required
              inputMode="decimal"
              {...form.getInputProps('total_premium')}
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
