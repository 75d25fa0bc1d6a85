import type { ClaimStats } from '@coverdesk/contract';
import { Text } from '@mantine/core';
import { type Figure, FiveFigures, FiveFiguresSkeleton } from '../../../components/five-figures.js';
import { ErrorState } from '../../../components/page-states.js';
import { Money } from '../../../lib/money.js';
import { useClaimStats } from '../api.js';

const count = new Intl.NumberFormat();
const days = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const claimsOf = (n: number) => `${count.format(n)} ${n === 1 ? 'claim' : 'claims'}`;

function figuresOf(stats: ClaimStats): Figure[] {
  const closed = stats.by_status.closed;
  return [
    {
      label: 'Open claims',
      value: count.format(stats.open_count),
      note: stats.total === 0 ? 'No claims' : `Not yet closed, of ${claimsOf(stats.total)}`,
    },
    {
      label: 'Claimed',
      value: <Money amount={stats.amount_claimed} />,
      note: `By customers, over ${claimsOf(stats.total)}`,
    },
    {
      label: 'Approved',
      value: <Money amount={stats.amount_approved} />,
      note: 'By insurers, where they decided',
    },
    { label: 'Paid by insurers', value: <Money amount={stats.amount_paid} />, note: 'Received so far' },
    {
      label: 'Average days to close',
      value: stats.average_days_to_close === null ? '—' : days.format(stats.average_days_to_close),
      note: closed === 0 ? 'No claim closed yet' : `From reported to closed, over ${claimsOf(closed)}`,
    },
  ];
}

/**
 * The claims counted and summed above the list. They follow its search and filters but not its
 * status (the figures are by status), which the caption says whenever the list is narrowed.
 */
export function ClaimStatsCards({
  query,
  statusFiltered,
}: {
  query: Record<string, string>;
  statusFiltered: boolean;
}) {
  const stats = useClaimStats(query);
  if (stats.isError) return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  const narrowed = Object.keys(query).length > 0;
  // An agency without claims sees the list's empty state alone, not five zeros above it.
  if (stats.data?.total === 0 && !narrowed && !statusFiltered) return null;
  const caption = narrowed
    ? 'For the claims matching the search and filters, in every status.'
    : statusFiltered
      ? "For all the agency's claims, in every status."
      : null;
  return (
    <div>
      {stats.data ? (
        <FiveFigures label="Claim figures" figures={figuresOf(stats.data)} />
      ) : (
        <FiveFiguresSkeleton />
      )}
      {caption && (
        <Text fz="xs" c="dimmed" mt={6}>
          {caption}
        </Text>
      )}
    </div>
  );
}
