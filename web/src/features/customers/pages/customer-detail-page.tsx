import type { Customer } from '@coverdesk/contract';
import { Anchor, Button, Card, Grid, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { PolicyStatusBadge } from '../../../components/policy-status-badge.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { RelatedClaims } from '../../claims/components/related-claims.js';
import { DocumentsPanel } from '../../documents/components/documents-panel.js';
import { useCustomer, useCustomerPolicies } from '../api.js';
import { CustomerContact } from '../components/customer-contact.js';
import { CustomerSummary } from '../components/customer-summary.js';

/** /customers/{id}: the summary, then contact and notes beside the customer's policies. */
export function Component() {
  const { id = '' } = useParams();
  const customer = useCustomer(id);
  if (customer.isPending) return <DetailSkeleton />;
  if (customer.isError)
    return (
      <ErrorState
        error={customer.error}
        onRetry={() => void customer.refetch()}
        back={{ to: '/customers', label: 'Back to customers' }}
      />
    );

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
          <Stack>
            <CustomerPolicies customer={customer.data} />
            <RelatedClaims customerId={customer.data.id} />
          </Stack>
        </Grid.Col>
      </Grid>
      <DocumentsPanel of={{ customer_id: customer.data.id }} what="customer" />
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

/** The customer's policies with what they have paid, and the totals across them. */
function CustomerPolicies({ customer }: { customer: Customer }) {
  const name = customer.customer_type === 'individual' ? customer.first_name : customer.display_name;
  const policies = useCustomerPolicies(customer.id);
  const canWork = useCan('work');
  return (
    <Card withBorder padding="lg" h="100%">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="h4">
          Policies
        </Title>
        {canWork && (
          <Button
            size="xs"
            variant="light"
            component={Link}
            to={`/policies/create?customer_id=${customer.id}`}
          >
            New policy
          </Button>
        )}
      </Group>
      {policies.isPending ? (
        <Skeleton h={80} />
      ) : policies.isError ? (
        <ErrorState error={policies.error} onRetry={() => void policies.refetch()} />
      ) : policies.data.results.length === 0 ? (
        <Stack align="center" gap="sm" ta="center" py="xl">
          <ThemeIcon size={48} radius="xl" variant="light" color="gray">
            <IconFileText size={26} stroke={1.6} aria-hidden />
          </ThemeIcon>
          <Text fw={600}>No policies yet.</Text>
          <Text c="dimmed" maw={420}>
            Policies you record for {name} will appear here with their instalments and totals.
          </Text>
        </Stack>
      ) : (
        <Stack gap="xs">
          {policies.data.results.map((policy) => (
            <Group key={policy.id} justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Anchor component={Link} to={`/policies/${policy.id}`} fw={600}>
                  {policy.policy_number}
                </Anchor>
                {/* The whole term: a renewal keeps its policy's number, so the dates tell the terms apart. */}
                <Text fz="xs" c="dimmed">
                  {policy.company_name} · {policy.policy_type_name} · {formatDate(policy.start_date)} –{' '}
                  {formatDate(policy.end_date)}
                </Text>
              </div>
              <Stack gap={2} align="flex-end">
                {policy.cancelled_at ? (
                  // Cancelled: what the term kept beside what was paid, the difference owed back.
                  <Text fz="sm" ta="right" style={{ ...TABULAR_FIGURES, whiteSpace: 'nowrap' }}>
                    <Money amount={policy.earned_premium} /> earned
                    <br />
                    <Money amount={policy.amount_paid} /> paid
                  </Text>
                ) : (
                  <Text fz="sm" ta="right" style={{ ...TABULAR_FIGURES, whiteSpace: 'nowrap' }}>
                    <Money amount={policy.amount_paid} /> of <Money amount={policy.total_premium} />
                  </Text>
                )}
                <PolicyStatusBadge status={policy.status} />
              </Stack>
            </Group>
          ))}
          {policies.data.count > policies.data.results.length && (
            <Anchor component={Link} to={`/policies?customer_id=${customer.id}`} fz="sm">
              All {policies.data.count} policies
            </Anchor>
          )}
        </Stack>
      )}
    </Card>
  );
}
