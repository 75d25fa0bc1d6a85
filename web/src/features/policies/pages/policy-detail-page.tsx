import { addDays, PAYMENT_FREQUENCY_LABELS, type Policy } from '@coverdesk/contract';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarX } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { DetailRow, Figure } from '../../../components/detail-figures.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { PolicyStatusBadge } from '../../../components/policy-status-badge.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { RelatedClaims } from '../../claims/components/related-claims.js';
import { DocumentsPanel } from '../../documents/components/documents-panel.js';
import { usePolicy, useUndoNotRenewing } from '../api.js';
import { InstallmentSchedule } from '../components/installment-schedule.js';
import { PolicyActions } from '../components/policy-actions.js';

/** /policies/{id}: who and what at the top, then terms, instalments and renewals. */
export function Component() {
  const { id = '' } = useParams();
  const policy = usePolicy(id);
  if (policy.isPending) return <DetailSkeleton />;
  if (policy.isError)
    return (
      <ErrorState
        error={policy.error}
        onRetry={() => void policy.refetch()}
        back={{ to: '/policies', label: 'Back to policies' }}
      />
    );
  const p = policy.data;
  return (
    <Stack maw={1200}>
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div>
            <Group gap="sm">
              <Title order={2} fz="h3">
                Policy {p.policy_number}
              </Title>
              <PolicyStatusBadge status={p.status} />
            </Group>
            <Text>
              <Anchor component={Link} to={`/customers/${p.customer.id}`}>
                {p.customer_name}
              </Anchor>{' '}
              · {p.company_name} · {p.policy_type_name}
            </Text>
          </div>
          <PolicyActions policy={p} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md" mt="md">
          {p.cancelled_at ? (
            // Cancelled or ended early by its renewal: what the term kept, on which its commission is worked out.
            <Figure label="Earned premium" figure="earned">
              <Money amount={p.earned_premium} />{' '}
              <Text component="span" fz="sm" fw={400} c="dimmed">
                of <Money amount={p.total_premium} />
              </Text>
            </Figure>
          ) : (
            <Figure label="Premium">
              <Money amount={p.total_premium} />
            </Figure>
          )}
          <Figure label="Paid">
            <Money amount={p.amount_paid} /> ({p.installments_paid}/{p.total_installments})
          </Figure>
          <Figure label="Expected commission" figure="expected">
            <Money amount={p.expected_commission} />
          </Figure>
          <Figure label="Paid by insurer" figure="insurer_paid">
            <Money amount={p.insurer_paid_commission} />
          </Figure>
          <Figure label="Earned on customer payments" figure="received">
            <Money amount={p.received_commission} />
          </Figure>
        </SimpleGrid>
      </Card>
      <NotRenewingNotice policy={p} />
      {/* One section under another, at full width: the schedule's payment actions need the room. */}
      <Terms policy={p} />
      <InstallmentSchedule policy={p} />
      <RelatedClaims policyId={p.id} />
      <DocumentsPanel of={{ policy_id: p.id }} what="policy" />
      <Renewals policy={p} />
    </Stack>
  );
}

/** The agency decided not to renew this term: why and when, with the way back if that was a mistake. */
function NotRenewingNotice({ policy }: { policy: Policy }) {
  const undo = useUndoNotRenewing(policy.id);
  const canWork = useCan('work');
  if (!policy.not_renewing_at) return null;
  return (
    <Alert color="orange" icon={<IconCalendarX size={18} aria-hidden />} title="Not renewing">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {policy.not_renewing_reason}
          </Text>
          <Text fz="xs" c="dimmed">
            Marked on {formatDate(policy.not_renewing_at)}. It stays off the expiring policies list; renewing
            it after all clears this.
          </Text>
        </div>
        {canWork && (
          <Button
            variant="default"
            size="xs"
            h={{ base: 44, sm: 30 }}
            loading={undo.isPending}
            onClick={() =>
              undo.mutate(undefined, {
                onSuccess: () =>
                  notifications.show({
                    color: 'green',
                    message: `Policy ${policy.policy_number} is back on the expiring policies list.`,
                  }),
                onError: (error) =>
                  notifications.show({ color: 'red', title: 'Could not undo', message: errorText(error) }),
              })
            }
          >
            Undo
          </Button>
        )}
      </Group>
    </Alert>
  );
}

function Terms({ policy }: { policy: Policy }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Terms
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xl" verticalSpacing={6}>
        <DetailRow label="Term">
          {formatDate(policy.start_date)} – {formatDate(policy.end_date)}
        </DetailRow>
        <DetailRow label="Total premium">
          <Money amount={policy.total_premium} />
        </DetailRow>
        <DetailRow label="Net premium (commission base)">
          <Money amount={policy.net_premium} />
        </DetailRow>
        <DetailRow label="Commission">{policy.commission_percentage}%</DetailRow>
        <DetailRow label="Paid">
          {policy.payment_frequency === 'custom'
            ? `${policy.custom_installments} instalments`
            : PAYMENT_FREQUENCY_LABELS[policy.payment_frequency]}
        </DetailRow>
        <DetailRow label="Assigned to">{policy.assigned_to_name || 'No one'}</DetailRow>
        {policy.producer_split_percentage !== null && (
          <DetailRow label="Producer's share">{policy.producer_split_percentage}%</DetailRow>
        )}
        {policy.insured_item && <DetailRow label="Insured">{policy.insured_item}</DetailRow>}
        {policy.sum_insured && (
          <DetailRow label="Sum insured">
            <Money amount={policy.sum_insured} />
          </DetailRow>
        )}
        {policy.deductible && (
          <DetailRow label="Deductible">
            <Money amount={policy.deductible} />
          </DetailRow>
        )}
        {policy.cancelled_at &&
          (policy.renewed_to_id ? (
            // A renewal that started before the term's end ended it the day before (the cancelled_at
            // recorded is the renewal's first day, as a cancellation's is the first day without cover).
            <DetailRow label="Ended early by renewal">
              on {formatDate(addDays(policy.cancelled_at, -1))}; it earns for its days of cover
            </DetailRow>
          ) : (
            <DetailRow label="Cancelled">
              {formatDate(policy.cancelled_at)}: {policy.cancellation_reason}
            </DetailRow>
          ))}
        {policy.cancellation_refund && (
          <DetailRow label="Refunded on cancellation">
            <Money amount={policy.cancellation_refund} />
          </DetailRow>
        )}
      </SimpleGrid>
      {policy.notes && (
        <Text fz="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {policy.notes}
        </Text>
      )}
    </Card>
  );
}

function Renewals({ policy }: { policy: Policy }) {
  if (!policy.renewed_from_id && !policy.renewed_to_id) return null;
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Renewals
      </Title>
      <Stack gap={6}>
        {policy.renewed_from_id && (
          <Anchor component={Link} to={`/policies/${policy.renewed_from_id}`} fz="sm">
            The term this one renews
          </Anchor>
        )}
        {policy.renewed_to_id && (
          <Anchor component={Link} to={`/policies/${policy.renewed_to_id}`} fz="sm">
            The term that renews this one
          </Anchor>
        )}
      </Stack>
    </Card>
  );
}
