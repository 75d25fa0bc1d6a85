import type { ClaimStats } from '@coverdesk/contract';
import { Card, Grid, Skeleton, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useClaimStats } from '../api.js';

/** Five in a row on a desk; two by two on a phone, the days to close across the width below them. */
const SPAN = { base: 5, md: 2 } as const;
const LAST_SPAN = { base: 10, md: 2 } as const;
const FIGURES = ['open', 'claimed', 'approved', 'paid', 'days'];

const count = new Intl.NumberFormat();
const days = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const claimsOf = (n: number) => `${count.format(n)} ${n === 1 ? 'claim' : 'claims'}`;

function Figure(props: { label: string; value: ReactNode; note: ReactNode; last?: boolean }) {
  return (
    <Grid.Col span={props.last ? LAST_SPAN : SPAN}>
      <Card withBorder padding="md" role="group" aria-label={props.label} h="100%">
        <Text fz="sm" c="dimmed">
          {props.label}
        </Text>
        <Text fz={{ base: 'lg', sm: 'xl' }} fw={700} style={TABULAR_FIGURES} mt={2}>
          {props.value}
        </Text>
        <Text fz="xs" c="dimmed" mt={2}>
          {props.note}
        </Text>
      </Card>
    </Grid.Col>
  );
}

function Figures({ stats }: { stats: ClaimStats }) {
  const closed = stats.by_status.closed;
  return (
    <>
      <Figure
        label="Open claims"
        value={count.format(stats.open_count)}
        note={stats.total === 0 ? 'No claims' : `Not yet closed, of ${claimsOf(stats.total)}`}
      />
      <Figure
        label="Claimed"
        value={<Money amount={stats.amount_claimed} />}
        note={`By customers, over ${claimsOf(stats.total)}`}
      />
      <Figure
        label="Approved"
        value={<Money amount={stats.amount_approved} />}
        note="By insurers, where they decided"
      />
      <Figure label="Paid by insurers" value={<Money amount={stats.amount_paid} />} note="Received so far" />
      <Figure
        label="Average days to close"
        value={stats.average_days_to_close === null ? '—' : days.format(stats.average_days_to_close)}
        note={closed === 0 ? 'No claim closed yet' : `From reported to closed, over ${claimsOf(closed)}`}
        last
      />
    </>
  );
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
    <section aria-label="Claim figures">
      <Grid columns={10} gap="sm">
        {stats.data ? (
          <Figures stats={stats.data} />
        ) : (
          FIGURES.map((figure, index) => (
            <Grid.Col key={figure} span={index === FIGURES.length - 1 ? LAST_SPAN : SPAN}>
              <Skeleton h={96} radius="md" />
            </Grid.Col>
          ))
        )}
      </Grid>
      {caption && (
        <Text fz="xs" c="dimmed" mt={6}>
          {caption}
        </Text>
      )}
    </section>
  );
}
