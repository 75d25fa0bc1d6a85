import { Alert, Button, Card, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import { api } from '../../../lib/api-client.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { timingSummary } from '../checks.js';
import { describeFailure, RunProgress } from '../components/check-list.js';
import { useRun } from '../use-run.js';

/** The calls the main screens make on opening, as they make them. */
const CALLS = [
  { name: 'Policies', path: '/policies/', query: {} },
  { name: 'Customers', path: '/customers/', query: {} },
  { name: 'Companies', path: '/companies/', query: {} },
  { name: 'Instalments (payments)', path: '/installments/', query: {} },
  { name: 'Commission report', path: '/policies/commission_batch/', query: { include: 'commission_data' } },
  { name: 'Customer analytics', path: '/analytics/customers/', query: {} },
  { name: 'Current portfolio', path: '/analytics/portfolio/', query: {} },
  { name: 'Portfolio history', path: '/analytics/portfolio-history/', query: { months: 12 } },
] as const;

const RUN_CHOICES = ['5', '10', '20', '50'];

interface Timing {
  name: string;
  path: string;
  durations: number[];
  failure?: string;
}

const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * Times each call one after another, never two at once, so the figures are the server's and not
 * the browser's queue. A call is not retried: a retry would hide a slow or failing answer.
 */
export function Component() {
  const [runs, setRuns] = useState('10');
  const [timings, setTimings] = useState<Timing[]>([]);

  const work = useCallback(
    async (report: (progress: string) => void, signal: AbortSignal) => {
      const count = Number(runs);
      const done: Timing[] = [];
      for (const call of CALLS) {
        const timing: Timing = { name: call.name, path: call.path, durations: [] };
        done.push(timing);
        for (let attempt = 1; attempt <= count; attempt++) {
          report(`${call.name}: run ${attempt} of ${count}`);
          const started = performance.now();
          try {
            await api.get(call.path, { query: call.query, retry: false, signal });
          } catch (error) {
            if (signal.aborted) throw error;
            timing.failure = describeFailure(error);
            break;
          }
          timing.durations.push(performance.now() - started);
          setTimings(done.map((row) => ({ ...row })));
        }
        setTimings(done.map((row) => ({ ...row })));
      }
      return done;
    },
    [runs],
  );
  const run = useRun(work);
  const start = () => {
    setTimings([]);
    run.start();
  };

  const phone = useDevice() === 'mobile';
  const rows = timings.map((timing) => ({ ...timing, ...timingSummary(timing.durations) }));

  return (
    <Stack maw={1100}>
      <Text c="dimmed" fz="sm">
        Times the calls behind the main screens for this agency, each run after the last, and shows the median
        (p50), the 95th percentile (p95) and the slowest.
      </Text>
      <Group align="end">
        <NativeSelect
          label="Runs per call"
          data={RUN_CHOICES}
          value={runs}
          onChange={(event) => setRuns(event.currentTarget.value)}
          disabled={run.running}
        />
        <Button onClick={start} loading={run.running}>
          Run
        </Button>
      </Group>
      {run.running && <RunProgress progress={run.progress} />}
      {run.error !== undefined && (
        <Alert color="red" variant="light" title="The run stopped">
          {describeFailure(run.error)}
        </Alert>
      )}
      {rows.length > 0 &&
        (phone ? (
          rows.map((row) => (
            <Card key={row.path} withBorder padding="sm">
              <Text fw={600} fz="sm">
                {row.name}
              </Text>
              <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                GET {row.path}
              </Text>
              {row.failure ? (
                <Text fz="sm" c="red.9" mt={4}>
                  {row.failure}
                </Text>
              ) : (
                <Text fz="sm" mt={4} style={TABULAR_FIGURES}>
                  p50 {ms(row.p50)} · p95 {ms(row.p95)} · max {ms(row.max)} ({row.durations.length} runs)
                </Text>
              )}
            </Card>
          ))
        ) : (
          <Table striped withTableBorder style={TABULAR_FIGURES}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Call</Table.Th>
                <Table.Th ta="right">Runs</Table.Th>
                <Table.Th ta="right">p50</Table.Th>
                <Table.Th ta="right">p95</Table.Th>
                <Table.Th ta="right">Max</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.path}>
                  <Table.Td>
                    <Text fz="sm">{row.name}</Text>
                    <Text fz="xs" c="dimmed">
                      GET {row.path}
                    </Text>
                  </Table.Td>
                  {row.failure ? (
                    <Table.Td colSpan={4}>
                      <Text fz="sm" c="red.9">
                        {row.failure}
                      </Text>
                    </Table.Td>
                  ) : (
                    <>
                      <Table.Td ta="right">{row.durations.length}</Table.Td>
                      <Table.Td ta="right">{ms(row.p50)}</Table.Td>
                      <Table.Td ta="right">{ms(row.p95)}</Table.Td>
                      <Table.Td ta="right">{ms(row.max)}</Table.Td>
                    </>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ))}
    </Stack>
  );
}
