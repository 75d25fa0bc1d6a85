import { type AdminTenantUsage, USAGE_METRIC_LABELS as LABELS } from '@coverdesk/contract';
import { Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { useAdminTenant, useAdminTenantUsage } from '../api.js';
import { TenantHeader } from '../components/tenant-header.js';

const BACK = { to: '/admin/tenants', label: 'Back to agencies' };
const count = new Intl.NumberFormat('en-US').format;
const monthName = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** "2026-11" as "Nov 2026". */
const monthOf = (month: string) => monthName.format(new Date(`${month}-01T00:00:00Z`));

type Metric = AdminTenantUsage['metrics'][number];

/** /admin/tenants/{id}/usage: each plan limit with its use, and what the agency added month by month. */
export function Component() {
  const { id = '' } = useParams();
  const tenant = useAdminTenant(id);
  const usage = useAdminTenantUsage(id);
  const phone = useDevice() === 'mobile';
  if (tenant.isPending || usage.isPending) return <DetailSkeleton />;
  if (tenant.isError || usage.isError) {
    const error = tenant.error ?? usage.error;
    return (
      <ErrorState
        error={error}
        onRetry={() => void Promise.all([tenant.refetch(), usage.refetch()])}
        back={BACK}
      />
    );
  }
  const { metrics, plan_name } = usage.data;
  return (
    <Stack maw={1200}>
      <TenantHeader
        tenantId={tenant.data.id}
        name={tenant.data.name}
        subscription={tenant.data.subscription}
      />
      <Text c="dimmed">
        {plan_name
          ? `Limits of the ${plan_name} plan.`
          : 'The agency has no subscription, so no plan limits apply.'}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {metrics.map((metric) => (
          <MetricCard key={metric.metric} metric={metric} />
        ))}
      </SimpleGrid>
      <Card withBorder padding={phone ? 'sm' : 'lg'}>
        <Title order={3} fz="h4" mb="sm">
          Added each month
        </Title>
        <Table.ScrollContainer minWidth={280}>
          <Table
            verticalSpacing="xs"
            horizontalSpacing={phone ? 6 : 'sm'}
            fz={phone ? 'sm' : undefined}
            striped
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Month</Table.Th>
                {metrics.map((metric) => (
                  <Table.Th key={metric.metric} ta="right">
                    {LABELS[metric.metric]}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(metrics[0]?.monthly ?? [])
                .map((row, index) => ({ month: row.month, index }))
                .reverse()
                .map(({ month, index }) => (
                  <Table.Tr key={month}>
                    <Table.Td>{monthOf(month)}</Table.Td>
                    {metrics.map((metric) => (
                      <Table.Td key={metric.metric} ta="right" style={TABULAR_FIGURES}>
                        {count(metric.monthly[index]?.added ?? 0)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}

function MetricCard({ metric }: { metric: Metric }) {
  const label = LABELS[metric.metric];
  const percentage = metric.percentage ?? 0;
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} fz="h5">
            {label}
          </Title>
          {metric.percentage !== null && (
            <Text fz="sm" fw={600} c={metric.is_over_limit ? 'red.8' : undefined} style={TABULAR_FIGURES}>
              {metric.percentage}%
            </Text>
          )}
        </Group>
        <Text fz="xl" fw={700} style={TABULAR_FIGURES}>
          {count(metric.used)}
          {metric.limit !== null && (
            <Text component="span" fz="sm" fw={400} c="dimmed">
              {' '}
              of {count(metric.limit)}
            </Text>
          )}
        </Text>
        {metric.limit !== null && (
          <Progress
            value={Math.min(100, percentage)}
            color={metric.is_over_limit ? 'red' : percentage >= 80 ? 'yellow' : 'blue'}
            aria-label={`${label}: ${percentage}% of the plan's limit`}
          />
        )}
        {metric.is_over_limit && (
          <Text fz="sm" c="red.8">
            Over the plan's limit: the agency cannot add more.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
