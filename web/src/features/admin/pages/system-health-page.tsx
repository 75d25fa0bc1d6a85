import { DATABASE_ENGINE_LABELS, type SystemHealth } from '@coverdesk/contract';
import { Alert, Anchor, Badge, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DetailRow } from '../../../components/detail-figures.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { RefreshBar } from '../components/refresh-bar.js';
import { useSystemHealth } from '../operations-api.js';
import { formatBytes, formatCount, formatMs, formatUptime } from '../operations-format.js';

/** The admin's check of the platform: database, migrations, job queues, email and this server. */
export function Component() {
  const query = useSystemHealth();
  const health = query.data;
  return (
    <Stack gap="md">
      <RefreshBar
        checkedAt={health?.checked_at}
        refreshing={query.isFetching}
        onRefresh={() => void query.refetch()}
      >
        {health && <OverallStatus health={health} />}
      </RefreshBar>
      {query.isError && !health ? (
        <ErrorState
          error={query.error}
          onRetry={() => void query.refetch()}
          title="The health check failed"
        />
      ) : !health ? (
        <DetailSkeleton />
      ) : (
        <HealthCards health={health} />
      )}
      <Diagnostics />
    </Stack>
  );
}

const DIAGNOSTICS = [
  { to: '/performance-test', label: 'Performance test', what: 'how fast your agency’s main calls answer' },
  {
    to: '/commission-aggregation-test',
    label: 'Commission aggregation test',
    what: 'the commission report’s totals recomputed from its rows',
  },
  {
    to: '/analytics-summaries-test',
    label: 'Analytics summaries test',
    what: 'the analytics totals checked against their parts',
  },
] as const;

/** The checks a support engineer runs on their own agency, and the API reference. */
function Diagnostics() {
  return (
    <Section title="Diagnostics">
      <Text fz="sm" c="dimmed">
        Each runs on the records of the agency you are signed in to.
      </Text>
      <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {DIAGNOSTICS.map((diagnostic) => (
          <Text
            component="li"
            fz="sm"
            key={diagnostic.to}
            mih={44}
            display="flex"
            style={{ alignItems: 'center' }}
          >
            <span>
              <Anchor component={Link} to={diagnostic.to} fz="sm">
                {diagnostic.label}
              </Anchor>
              : {diagnostic.what}
            </span>
          </Text>
        ))}
        <Text component="li" fz="sm" mih={44} display="flex" style={{ alignItems: 'center' }}>
          <span>
            <Anchor href="/api/docs" fz="sm">
              API reference
            </Anchor>
            : every endpoint, at /api/docs
          </span>
        </Text>
      </Stack>
    </Section>
  );
}

function OverallStatus({ health }: { health: SystemHealth }) {
  const ok = health.status === 'ok';
  return (
    <Badge
      size="lg"
      color={ok ? 'green' : 'red'}
      variant="light"
      leftSection={ok ? <IconCircleCheck size={16} /> : <IconAlertTriangle size={16} />}
    >
      {ok ? 'Working normally' : 'Needs attention'}
    </Badge>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Stack gap="xs">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function HealthCards({ health }: { health: SystemHealth }) {
  const { database, migrations, process } = health;
  const migrationsBehind = migrations.applied !== null && migrations.applied < migrations.expected;
  return (
    <Stack gap="md">
      {!database.reachable && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="The database does not answer"
        >
          The server could not read the database, so migrations, job queues and email cannot be checked. The
          server's log has the error.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Section title="Database">
          <DetailRow label="Status">
            <Badge color={database.reachable ? 'green' : 'red'} variant="light">
              {database.reachable ? 'Reachable' : 'Unreachable'}
            </Badge>
          </DetailRow>
          <DetailRow label="Engine">{DATABASE_ENGINE_LABELS[database.engine]}</DetailRow>
          <DetailRow label="Version">{database.version ?? '—'}</DetailRow>
          <DetailRow label="Answered in">
            {database.latency_ms === null ? '—' : formatMs(database.latency_ms)}
          </DetailRow>
        </Section>
        <Section title="Migrations">
          <DetailRow label="Applied">
            {migrations.applied === null ? '—' : formatCount(migrations.applied)}
          </DetailRow>
          <DetailRow label="In this version">{formatCount(migrations.expected)}</DetailRow>
          {migrationsBehind ? (
            <Text fz="sm" c="red.9">
              {formatCount(migrations.expected - (migrations.applied ?? 0))} not applied yet: they run when
              the server starts.
            </Text>
          ) : (
            migrations.applied !== null && (
              <Text fz="sm" c="dimmed">
                The database is up to date.
              </Text>
            )
          )}
        </Section>
        <Section title="Email, last 24 hours">
          {health.email ? (
            <>
              <DetailRow label="Mail server">
                {health.email.smtp_configured ? 'Set up' : 'Not set up'}
              </DetailRow>
              <DetailRow label="Reminders sent">{formatCount(health.email.reminders_sent)}</DetailRow>
              <DetailRow label="Reminders failed">{formatCount(health.email.reminders_failed)}</DetailRow>
              <DetailRow label="Reminders to retry">{formatCount(health.email.reminders_retrying)}</DetailRow>
              <DetailRow label="Account emails refused">{formatCount(health.email.account_failed)}</DetailRow>
              <DetailRow label="Account emails kept (no mail server)">
                {formatCount(health.email.account_not_sent)}
              </DetailRow>
            </>
          ) : (
            <Text fz="sm" c="dimmed">
              Not known while the database does not answer.
            </Text>
          )}
        </Section>
        <Section title="This server">
          <DetailRow label="Memory in use">{formatBytes(process.rss_bytes)}</DetailRow>
          <DetailRow label="JavaScript heap">
            {formatBytes(process.heap_used_bytes)} of {formatBytes(process.heap_total_bytes)}
          </DetailRow>
          <DetailRow label="Running for">{formatUptime(process.uptime_seconds)}</DetailRow>
          <DetailRow label="Node.js">{process.node_version}</DetailRow>
          <DetailRow label="Coverdesk">{process.app_version}</DetailRow>
        </Section>
      </SimpleGrid>
      <Section title="Job queues">
        {health.job_queues ? (
          <JobQueues queues={health.job_queues} />
        ) : (
          <Text fz="sm" c="dimmed">
            Not known while the database does not answer.
          </Text>
        )}
      </Section>
    </Stack>
  );
}

const QUEUE_LABELS: Record<string, string> = {
  import: 'Imports',
  'notification-generate': 'Reminders to write',
  'notification-email': 'Reminder emails',
};

function JobQueues({ queues }: { queues: NonNullable<SystemHealth['job_queues']> }) {
  const device = useDevice();
  if (device === 'mobile') {
    return (
      <Stack gap="sm">
        {queues.map((queue) => (
          <Card key={queue.name} withBorder padding="sm">
            <Text fw={600} mb={4}>
              {QUEUE_LABELS[queue.name] ?? queue.name}
            </Text>
            <DetailRow label="Waiting">{formatCount(queue.queued)}</DetailRow>
            <DetailRow label="Running">{formatCount(queue.active)}</DetailRow>
            <DetailRow label="Failed in 24 h">{formatCount(queue.failed_24h)}</DetailRow>
          </Card>
        ))}
      </Stack>
    );
  }
  const numeric = { ta: 'right', style: TABULAR_FIGURES } as const;
  return (
    <Table verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Queue</Table.Th>
          <Table.Th ta="right">Waiting</Table.Th>
          <Table.Th ta="right">Running</Table.Th>
          <Table.Th ta="right">Failed in the last 24 hours</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {queues.map((queue) => (
          <Table.Tr key={queue.name}>
            <Table.Td>
              {QUEUE_LABELS[queue.name] ?? queue.name}{' '}
              <Text span fz="xs" c="dimmed">
                {queue.name}
              </Text>
            </Table.Td>
            <Table.Td {...numeric}>{formatCount(queue.queued)}</Table.Td>
            <Table.Td {...numeric}>{formatCount(queue.active)}</Table.Td>
            <Table.Td {...numeric} c={queue.failed_24h > 0 ? 'red.9' : undefined}>
              {formatCount(queue.failed_24h)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
