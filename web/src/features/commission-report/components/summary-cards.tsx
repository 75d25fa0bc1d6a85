import type { CommissionSummary } from '@coverdesk/contract';
import { Card, Grid, Skeleton, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';

/** Five in a row on a desk; two by two on a phone, the received share across the width below them. */
const SPAN = { base: 5, md: 2 } as const;
const LAST_SPAN = { base: 10, md: 2 } as const;

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

/** The period's totals over every matching policy (not only the page shown). */
export function SummaryCards({ summary }: { summary: CommissionSummary }) {
  const policies = `${summary.total_policies} ${summary.total_policies === 1 ? 'policy' : 'policies'}`;
  return (
    <Grid columns={10} gap="sm" aria-label="Totals" component="section">
      <Figure label="Total premium" value={<Money amount={summary.total_premium} />} note={policies} />
      <Figure
        label="Commission expected"
        value={<Money amount={summary.total_expected_commission} />}
        note={`${summary.average_commission_percentage}% of net premium`}
      />
      <Figure
        label="Received"
        value={<Money amount={summary.total_received_commission} />}
        note="Earned on what customers paid"
      />
      <Figure
        label="Outstanding"
        value={<Money amount={summary.outstanding_commission} />}
        note="Expected, not yet received"
      />
      <Figure
        label="Received %"
        value={`${summary.commission_received_percentage}%`}
        note="Of the commission expected"
        last
      />
    </Grid>
  );
}

export function SummaryCardsSkeleton() {
  return (
    <Grid columns={10} gap="sm">
      {['premium', 'expected', 'received', 'outstanding', 'share'].map((figure, index) => (
        <Grid.Col key={figure} span={index === 4 ? LAST_SPAN : SPAN}>
          <Skeleton h={96} radius="md" />
        </Grid.Col>
      ))}
    </Grid>
  );
}
