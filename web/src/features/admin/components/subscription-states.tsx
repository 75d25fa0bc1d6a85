import { SUBSCRIPTION_STATUSES, type SubscriptionCounts } from '@coverdesk/contract';
import { Badge, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatCount } from '../../../components/charts/chart-format.js';
import { SUBSCRIPTION_STATES } from '../../../components/subscription-badge.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';

/** How many agencies' subscriptions are in each state: a badge naming the state, and the count. */
export function SubscriptionStates({ counts }: { counts: SubscriptionCounts }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" aria-label="Subscriptions by state">
      {SUBSCRIPTION_STATUSES.map((status) => {
        const { label, color } = SUBSCRIPTION_STATES[status];
        return (
          <Card key={status} withBorder padding="sm" role="group" aria-label={label}>
            <Stack gap={4} align="flex-start">
              <Badge color={color} variant="light">
                {label}
              </Badge>
              <Text fw={700} fz="xl" style={TABULAR_FIGURES}>
                {formatCount(counts[status])}
              </Text>
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
