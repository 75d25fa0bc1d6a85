import { USAGE_METRIC_LABELS as LABELS, USAGE_METRICS } from '@coverdesk/contract';
import { Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useUsageSummary } from '../api.js';

const count = new Intl.NumberFormat();

/** Each plan limit as a bar: how much is used and what remains. */
export function PlanUsage() {
  const usage = useUsageSummary();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="sm">
        Plan usage
      </Title>
      {usage.isPending ? (
        <Skeleton h={48} />
      ) : usage.isError ? (
        <ErrorState
          title="Failed to fetch usage metrics"
          error={usage.error}
          onRetry={() => void usage.refetch()}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {USAGE_METRICS.map((metric) => {
            const value = usage.data[metric];
            const full = value.current_value >= value.limit_value;
            return (
              <Stack key={metric} gap={6}>
                <Group justify="space-between" gap="xs">
                  <Text fw={600} fz="sm">
                    {LABELS[metric]}
                  </Text>
                  <Text fz="sm" style={TABULAR_FIGURES}>
                    {count.format(value.current_value)} of {count.format(value.limit_value)}
                  </Text>
                </Group>
                <Progress
                  value={Math.min(100, value.usage_percentage)}
                  color={full ? 'red' : value.usage_percentage >= 80 ? 'yellow' : 'indigo'}
                  aria-label={`${LABELS[metric]}: ${value.usage_percentage}% of the plan limit used`}
                />
                <Text fz="xs" c={full ? 'red.8' : 'dimmed'} role={value.is_over_limit ? 'alert' : undefined}>
                  {value.is_over_limit
                    ? `Over the limit by ${count.format(value.current_value - value.limit_value)}: remove some or upgrade to add more.`
                    : full
                      ? 'Limit reached — upgrade to add more.'
                      : `${count.format(value.remaining_usage)} left`}
                </Text>
              </Stack>
            );
          })}
        </SimpleGrid>
      )}
    </Card>
  );
}
