import {
  PERFORMANCE_WINDOW_LABELS,
  PERFORMANCE_WINDOWS,
  type PerformanceReport,
  type PerformanceWindow,
  type RoutePerformance,
} from '@coverdesk/contract';
import {
  Alert,
  Badge,
  Card,
  Code,
  Group,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp, IconGauge, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { DetailRow, Figure as LabelledFigure } from '../../../components/detail-figures.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { RefreshBar } from '../components/refresh-bar.js';
import { usePerformance } from '../operations-api.js';
import { formatCount, formatMoment, formatMs } from '../operations-format.js';

type SortKey = 'route' | 'count' | 'errors' | 'p50_ms' | 'p95_ms' | 'p99_ms';
interface Sort {
  key: SortKey;
  descending: boolean;
}

const COLUMNS: { key: SortKey; header: string }[] = [
  { key: 'route', header: 'Route' },
  { key: 'count', header: 'Requests' },
  { key: 'errors', header: 'Server errors' },
  { key: 'p50_ms', header: 'p50' },
  { key: 'p95_ms', header: 'p95' },
  { key: 'p99_ms', header: 'p99' },
];

function sorted(routes: RoutePerformance[], { key, descending }: Sort): RoutePerformance[] {
  const compare = (a: RoutePerformance, b: RoutePerformance) =>
    key === 'route' ? `${a.route} ${a.method}`.localeCompare(`${b.route} ${b.method}`) : a[key] - b[key];
  return [...routes].sort((a, b) => (descending ? compare(b, a) : compare(a, b)));
}

/** How fast each route answers on this server instance, and the database's slowest statements. */
export function Component() {
  const [window, setWindow] = useState<PerformanceWindow>('hour');
  const [sort, setSort] = useState<Sort>({ key: 'p95_ms', descending: true });
  const query = usePerformance(window);
  const report = query.data;
  return (
    <Stack gap="md">
      <RefreshBar
        checkedAt={report?.checked_at}
        refreshing={query.isFetching}
        onRefresh={() => void query.refetch()}
      >
        <SegmentedControl
          aria-label="Period"
          value={window}
          onChange={(value) => setWindow(value as PerformanceWindow)}
          data={PERFORMANCE_WINDOWS.map((value) => ({ value, label: PERFORMANCE_WINDOW_LABELS[value] }))}
        />
      </RefreshBar>
      {query.isError && !report ? (
        <ErrorState
          error={query.error}
          onRetry={() => void query.refetch()}
          title="The figures could not be read"
        />
      ) : !report ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading">
          <Skeleton h={60} radius="md" />
          <Skeleton h={300} radius="md" />
        </Stack>
      ) : (
        <>
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
            These figures are this server instance's own, counted in its memory since it started on{' '}
            {formatMoment(report.instance_started_at)}. With several instances, each counts only the requests
            it answered; a restart starts the count again. Percentiles are read from a histogram, to within
            about an eighth.
          </Alert>
          <RouteFigures report={report} sort={sort} onSort={setSort} />
          <SlowQueries report={report} />
        </>
      )}
    </Stack>
  );
}

function RouteFigures({
  report,
  sort,
  onSort,
}: {
  report: PerformanceReport;
  sort: Sort;
  onSort(sort: Sort): void;
}) {
  const device = useDevice();
  if (report.routes.length === 0) {
    return (
      <EmptyState icon={IconGauge} title="No requests in this period">
        This server instance has answered no request in the{' '}
        {report.window === 'hour' ? 'last hour' : 'last day'}.
      </EmptyState>
    );
  }
  const routes = sorted(report.routes, sort);
  if (device === 'mobile') {
    return (
      <Stack gap="xs">
        <NativeSelect
          label="Sort by"
          value={`${sort.key}:${sort.descending ? 'desc' : 'asc'}`}
          onChange={(event) => {
            const [key, direction] = event.currentTarget.value.split(':') as [SortKey, string];
            onSort({ key, descending: direction === 'desc' });
          }}
          data={[
            { value: 'p95_ms:desc', label: 'Slowest p95 first' },
            { value: 'p99_ms:desc', label: 'Slowest p99 first' },
            { value: 'count:desc', label: 'Most requests first' },
            { value: 'errors:desc', label: 'Most server errors first' },
            { value: 'route:asc', label: 'Route, A to Z' },
          ]}
        />
        {routes.map((route) => (
          <Card key={`${route.method} ${route.route}`} withBorder padding="sm">
            <Group gap="xs" wrap="nowrap" mb={4}>
              <MethodBadge method={route.method} />
              <Text fw={600} fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {route.route}
              </Text>
            </Group>
            <SimpleGrid cols={3} spacing="xs">
              <LabelledFigure label="p50">{formatMs(route.p50_ms)}</LabelledFigure>
              <LabelledFigure label="p95">{formatMs(route.p95_ms)}</LabelledFigure>
              <LabelledFigure label="p99">{formatMs(route.p99_ms)}</LabelledFigure>
            </SimpleGrid>
            <Text fz="sm" c={route.errors > 0 ? 'red.9' : 'dimmed'} mt={4}>
              {formatCount(route.count)} {route.count === 1 ? 'request' : 'requests'},{' '}
              {formatCount(route.errors)} server {route.errors === 1 ? 'error' : 'errors'}
            </Text>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Card withBorder padding={0}>
      <Table.ScrollContainer minWidth={720}>
        <Table highlightOnHover verticalSpacing="xs" horizontalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <SortableHeader key={column.key} column={column} sort={sort} onSort={onSort} />
              ))}
              <Table.Th ta="right">Slowest</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {routes.map((route) => (
              <Table.Tr key={`${route.method} ${route.route}`}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <MethodBadge method={route.method} />
                    <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                      {route.route}
                    </Text>
                  </Group>
                </Table.Td>
                <Figure>{formatCount(route.count)}</Figure>
                <Figure danger={route.errors > 0}>{formatCount(route.errors)}</Figure>
                <Figure>{formatMs(route.p50_ms)}</Figure>
                <Figure>{formatMs(route.p95_ms)}</Figure>
                <Figure>{formatMs(route.p99_ms)}</Figure>
                <Figure>{formatMs(route.max_ms)}</Figure>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function Figure({ children, danger }: { children: string; danger?: boolean }) {
  return (
    <Table.Td
      ta="right"
      c={danger ? 'red.9' : undefined}
      style={{ ...TABULAR_FIGURES, whiteSpace: 'nowrap' }}
    >
      {children}
    </Table.Td>
  );
}

function MethodBadge({ method }: { method: string }) {
  return (
    <Badge variant="light" color={method === 'GET' ? 'gray' : 'blue'} radius="sm" style={{ flexShrink: 0 }}>
      {method}
    </Badge>
  );
}

function SortableHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: Sort;
  onSort(sort: Sort): void;
}) {
  const active = sort.key === column.key;
  const Icon = !active ? IconArrowsSort : sort.descending ? IconArrowDown : IconArrowUp;
  const numeric = column.key !== 'route';
  return (
    <Table.Th
      ta={numeric ? 'right' : undefined}
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      <UnstyledButton
        fw={700}
        fz="sm"
        // Figures sort slowest or largest first at the first click; routes from A.
        onClick={() => onSort({ key: column.key, descending: active ? !sort.descending : numeric })}
      >
        <Group gap={4} wrap="nowrap" justify={numeric ? 'flex-end' : undefined}>
          {column.header}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function SlowQueries({ report }: { report: PerformanceReport }) {
  const device = useDevice();
  const { slow_queries: slow } = report;
  return (
    <Stack gap="xs">
      <Title order={2} fz="h4">
        Slowest database queries
      </Title>
      {!slow.available ? (
        <Alert
          variant="light"
          color="gray"
          icon={<IconInfoCircle size={18} />}
          title="Not available on this server"
        >
          {slow.unavailable_reason}
        </Alert>
      ) : slow.queries.length === 0 ? (
        <Text c="dimmed" fz="sm">
          The database has no query statistics yet.
        </Text>
      ) : device === 'mobile' ? (
        slow.queries.map((query) => (
          <Card key={query.query} withBorder padding="sm">
            <Code block fz="xs" mb="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {query.query}
            </Code>
            <DetailRow label="Calls">{formatCount(query.calls)}</DetailRow>
            <DetailRow label="Mean">{formatMs(query.mean_ms)}</DetailRow>
            <DetailRow label="Total">{formatMs(query.total_ms)}</DetailRow>
          </Card>
        ))
      ) : (
        <Card withBorder padding={0}>
          <Table verticalSpacing="xs" horizontalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Query</Table.Th>
                <Table.Th ta="right">Calls</Table.Th>
                <Table.Th ta="right">Mean</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {slow.queries.map((query) => (
                <Table.Tr key={query.query}>
                  <Table.Td>
                    <Code fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {query.query}
                    </Code>
                  </Table.Td>
                  <Figure>{formatCount(query.calls)}</Figure>
                  <Figure>{formatMs(query.mean_ms)}</Figure>
                  <Figure>{formatMs(query.total_ms)}</Figure>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}
