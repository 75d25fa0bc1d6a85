import type { Customer } from '@coverdesk/contract';
import { Card, Grid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { useCustomer } from '../api.js';
import { CustomerContact } from '../components/customer-contact.js';
import { CustomerSummary } from '../components/customer-summary.js';

/** /customers/{id}: the summary, then contact and notes beside the customer's policies. */
export function Component() {
  const { id = '' } = useParams();
  const customer = useCustomer(id);
  if (customer.isPending) return <DetailSkeleton />;
  if (customer.isError) return <ErrorState error={customer.error} onRetry={() => void customer.refetch()} />;

  return (
    <Stack maw={1200}>
      <CustomerSummary customer={customer.data} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <CustomerContact customer={customer.data} />
            <CustomerNotes notes={customer.data.notes} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <CustomerPolicies customer={customer.data} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function CustomerNotes({ notes }: { notes: string }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Notes
      </Title>
      {notes ? (
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{notes}</Text>
      ) : (
        <Text c="dimmed">No notes yet.</Text>
      )}
    </Card>
  );
}

/** Policies are not recorded in Coverdesk yet, so this says what will be here rather than offering a button. */
function CustomerPolicies({ customer }: { customer: Customer }) {
  const name = customer.customer_type === 'individual' ? customer.first_name : customer.display_name;
  return (
    <Card withBorder padding="lg" h="100%">
      <Title order={3} fz="h4" mb="sm">
        Policies
      </Title>
      <Stack align="center" gap="sm" ta="center" py="xl">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconFileText size={26} stroke={1.6} aria-hidden />
        </ThemeIcon>
        <Text fw={600}>No policies yet.</Text>
        <Text c="dimmed" maw={420}>
          Policies you record for {name} will appear here with their instalments and totals.
        </Text>
      </Stack>
    </Card>
  );
}
