import {
  Accordion,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { ApiError } from '../../../lib/http.js';
import { useDevice } from '../../../lib/viewport.js';
import type { Check } from '../checks.js';

/** Green when the figures agree; red with the words too, so colour is never the only signal. */
function Verdict({ check }: { check: Check }) {
  return check.matches ? (
    <Badge color="green" variant="light">
      matches to the cent
    </Badge>
  ) : (
    <Badge color="red" variant="filled">
      differs by {check.difference}
    </Badge>
  );
}

/** One card per check, for a phone. */
function CheckCards({ expectedLabel, actualLabel, checks }: Omit<CheckListProps, 'title'>) {
  return checks.map((check) => (
    <Card key={check.label} withBorder padding="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600} fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {check.label}
        </Text>
        <Verdict check={check} />
      </Group>
      <SimpleGrid cols={3} mt="xs" style={TABULAR_FIGURES}>
        {[
          [expectedLabel, check.expected],
          [actualLabel, check.actual],
          ['Difference', check.difference],
        ].map(([label, value]) => (
          <div key={label}>
            <Text fz="xs" c="dimmed">
              {label}
            </Text>
            <Text fz="sm">{value}</Text>
          </div>
        ))}
      </SimpleGrid>
    </Card>
  ));
}

interface CheckListProps {
  title: string;
  expectedLabel: string;
  actualLabel: string;
  checks: Check[];
}

/**
 * A group of checks: a table on a desk. On a phone a group whose checks all agree folds to one
 * line, so the few that differ are not lost among dozens of cards; a group that differs opens.
 */
export function CheckList(props: CheckListProps) {
  const { title, expectedLabel, actualLabel, checks } = props;
  const phone = useDevice() === 'mobile';
  if (phone) {
    const matching = checks.filter((check) => check.matches).length;
    return (
      <Accordion variant="contained" defaultValue={matching === checks.length ? null : 'checks'}>
        <Accordion.Item value="checks">
          <Accordion.Control>
            <Text fw={600} fz="sm">
              {title}
            </Text>
            <Text fz="xs" c={matching === checks.length ? 'dimmed' : 'red.9'}>
              {matching} of {checks.length} match to the cent
            </Text>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              <CheckCards {...props} />
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    );
  }
  return (
    <Stack gap="xs">
      <Title order={2} fz="h5">
        {title}
      </Title>
      <Table striped withTableBorder style={TABULAR_FIGURES}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Figure</Table.Th>
            <Table.Th ta="right">{expectedLabel}</Table.Th>
            <Table.Th ta="right">{actualLabel}</Table.Th>
            <Table.Th ta="right">Difference</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {checks.map((check) => (
            <Table.Tr key={check.label}>
              <Table.Td>{check.label}</Table.Td>
              <Table.Td ta="right">{check.expected}</Table.Td>
              <Table.Td ta="right">{check.actual}</Table.Td>
              <Table.Td ta="right">{check.difference}</Table.Td>
              <Table.Td>
                <Verdict check={check} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** How many checks disagree, said once at the top of the results. */
export function Verdicts({ checks }: { checks: Check[] }) {
  const failing = checks.filter((check) => !check.matches).length;
  return failing === 0 ? (
    <Group gap="xs">
      <IconCircleCheck color="var(--mantine-color-green-7)" aria-hidden />
      <Text fw={600}>All {checks.length} checks match to the cent.</Text>
    </Group>
  ) : (
    <Group gap="xs">
      <IconAlertTriangle color="var(--mantine-color-red-7)" aria-hidden />
      <Text fw={600} c="red.9">
        {failing} of {checks.length} checks differ.
      </Text>
    </Group>
  );
}

/** What a failed call answered, its status first: a 403 is a module the plan leaves out, not a crash. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return error.message;
    if (error.status === 403) return `403 refused (not in this agency's plan or role): ${error.message}`;
    return `${error.status}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A run that stopped: why, and the way to run it again. */
export function RunFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" title="The run stopped on a failed call">
      <Text fz="sm">{describeFailure(error)}</Text>
      <Button size="xs" variant="light" mt="xs" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}

/** What a run is doing now, announced to screen readers as it changes. */
export function RunProgress({ progress }: { progress: string }) {
  return (
    <Group gap="xs" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text fz="sm">{progress}</Text>
    </Group>
  );
}
