import { CLAIM_TYPE_LABELS } from '@coverdesk/contract';
import { Anchor, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useAccess } from '../../../app/access.js';
import { ErrorState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useCan } from '../../../lib/use-can.js';
import { useClaims } from '../api.js';
import { ClaimAmountLine } from './claim-amount-line.js';
import { ClaimStatusBadge } from './claim-status-badge.js';

/** Claims shown on a policy's or a customer's page; more lead to the list, filtered. */
const SHOWN = 10;

/**
 * The claims on one policy, or of one customer, with "New claim" on a policy's page. Shown only to
 * agencies whose plan includes claims.
 */
export function RelatedClaims(props: { policyId: string } | { customerId: string }) {
  const { canOpen } = useAccess();
  const allowed = canOpen('module_claims');
  const canWork = useCan('work');
  const filter: Record<string, string> =
    'policyId' in props ? { policy_id: props.policyId } : { customer_id: props.customerId };
  const claims = useClaims({ ...filter, page_size: SHOWN, ordering: '-reported_date' }, { enabled: allowed });
  if (!allowed) return null;
  const listLink = `/claims?${new URLSearchParams(filter)}`;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="h4">
          Claims
        </Title>
        {'policyId' in props && canWork && (
          <Button
            size="xs"
            variant="light"
            component={Link}
            to={`/claims/create?policy_id=${props.policyId}`}
          >
            New claim
          </Button>
        )}
      </Group>
      {claims.isPending ? (
        <Skeleton h={60} />
      ) : claims.isError ? (
        <ErrorState error={claims.error} onRetry={() => void claims.refetch()} />
      ) : claims.data.results.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No claims {'policyId' in props ? 'on this policy' : 'for this customer'}.
        </Text>
      ) : (
        <Stack gap="xs">
          {claims.data.results.map((claim) => (
            <Group key={claim.id} justify="space-between" wrap="nowrap" gap="sm">
              <div>
                <Anchor component={Link} to={`/claims/${claim.id}`} fw={600}>
                  {claim.claim_number}
                </Anchor>
                <Text fz="xs" c="dimmed">
                  {CLAIM_TYPE_LABELS[claim.claim_type]} · {formatDate(claim.incident_date)}
                  {'customerId' in props ? ` · ${claim.policy.policy_number}` : ''}
                </Text>
              </div>
              <Stack gap={2} align="flex-end">
                <Text fz="sm" style={TABULAR_FIGURES}>
                  <ClaimAmountLine claim={claim} />
                </Text>
                <ClaimStatusBadge status={claim.status} />
              </Stack>
            </Group>
          ))}
          {claims.data.count > claims.data.results.length && (
            <Anchor component={Link} to={listLink} fz="sm">
              All {claims.data.count} claims
            </Anchor>
          )}
        </Stack>
      )}
    </Card>
  );
}
