import {
  EXPIRY_WINDOWS,
  type ExpiringCounts,
  type ExpiryWindow,
  LAPSED_WITHIN_DAYS,
} from '@coverdesk/contract';
import { Card, Group, SimpleGrid, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import classes from './window-cards.module.css';

/**
 * The counts per window at the top, which also choose it: one window at a time (they nest: 60 days
 * holds the 30), and the lapsed policies shown beside it or not.
 */
export function WindowCards({
  counts,
  within,
  includeLapsed,
  onWithin,
  onIncludeLapsed,
}: {
  counts: ExpiringCounts | undefined;
  within: ExpiryWindow;
  includeLapsed: boolean;
  onWithin(days: ExpiryWindow): void;
  onIncludeLapsed(include: boolean): void;
}) {
  const card = (
    key: string,
    label: string,
    count: number | undefined,
    pressed: boolean,
    onClick: () => void,
  ) => (
    <UnstyledButton key={key} onClick={onClick} aria-pressed={pressed} className={classes.choice}>
      <Card withBorder padding="sm" className={classes.card} data-pressed={pressed || undefined}>
        <Group justify="space-between" wrap="nowrap" gap={4} align="flex-start">
          <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          {/* Not the colour alone: a tick marks what is shown. */}
          {pressed && <IconCircleCheckFilled size={16} aria-hidden className={classes.tick} />}
        </Group>
        {count === undefined ? (
          <Skeleton h={28} w={48} mt={4} />
        ) : (
          <Text fz="xl" fw={700} style={TABULAR_FIGURES}>
            {count}
          </Text>
        )}
      </Card>
    </UnstyledButton>
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" role="group" aria-label="Which policies to show">
      {EXPIRY_WINDOWS.map((days) =>
        card(`${days}`, `Ending in ${days} days`, counts?.[`within_${days}`], within === days, () =>
          onWithin(days),
        ),
      )}
      {card('lapsed', `Lapsed, last ${LAPSED_WITHIN_DAYS} days`, counts?.lapsed, includeLapsed, () =>
        onIncludeLapsed(!includeLapsed),
      )}
    </SimpleGrid>
  );
}
