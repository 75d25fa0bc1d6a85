import { STATEMENT_RESOLUTION_LABELS, type StatementLine } from '@coverdesk/contract';
import { Anchor, Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { MethodBadge, OutcomeBadge } from './badges.js';

/** How an unmatched line was resolved, and why. */
function Resolution({ line }: { line: StatementLine }) {
  if (!line.resolution) return null;
  return (
    <Stack gap={2}>
      <Badge color="gray.7" variant="outline" miw="max-content">
        {STATEMENT_RESOLUTION_LABELS[line.resolution]}
      </Badge>
      {line.resolution_reason && (
        <Text fz="xs" c="dimmed">
          {line.resolution_reason}
        </Text>
      )}
    </Stack>
  );
}

function Difference({ amount }: { amount: string | null }) {
  if (amount === null) return <>—</>;
  const color = Number(amount) === 0 ? undefined : Number(amount) < 0 ? 'red.9' : 'blue.8';
  return (
    <Text inherit c={color} span style={TABULAR_FIGURES}>
      <Money amount={amount} />
    </Text>
  );
}

function MatchedPolicy({ line }: { line: StatementLine }) {
  if (!line.policy_id)
    return (
      <Text inherit c="dimmed">
        Not matched
      </Text>
    );
  return (
    <Stack gap={0}>
      <Anchor component={Link} to={`/policies/${line.policy_id}`} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {line.policy_number}
      </Anchor>
      <Text fz="xs" c="dimmed">
        {line.customer_name}
      </Text>
    </Stack>
  );
}

/**
 * A page of a statement's lines with their outcomes: cards on a phone, a table on a desk; `actions`
 * are a line's buttons, for those who may act on it.
 */
export function StatementLines({
  lines,
  mobile,
  actions,
}: {
  lines: StatementLine[];
  mobile: boolean;
  actions?: ((line: StatementLine) => ReactNode) | undefined;
}) {
  return lines.length === 0 ? (
    <Card withBorder padding="lg">
      <Text c="dimmed">No lines with this outcome.</Text>
    </Card>
  ) : mobile ? (
    <Stack gap="xs">
      {lines.map((line) => (
        <Card key={line.line_number} withBorder padding="sm">
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>
                {line.line_number}. {line.raw_policy_number || line.insured_name}
              </Text>
              <OutcomeBadge outcome={line.outcome} />
            </Group>
            <Text fz="sm" c="dimmed">
              {line.insured_name}
            </Text>
            <Group justify="space-between">
              <MatchedPolicy line={line} />
              <MethodBadge line={line} />
            </Group>
            <Resolution line={line} />
            <Group justify="space-between" fz="sm">
              <Text fz="sm">
                Paid <Money amount={line.paid_commission} />
              </Text>
              <Text fz="sm">
                Expected{' '}
                {line.expected_commission === null ? '—' : <Money amount={line.expected_commission} />}
              </Text>
              <Text fz="sm">
                <Difference amount={line.difference} />
              </Text>
            </Group>
            {line.note && (
              <Text fz="sm" fs="italic">
                {line.note}
              </Text>
            )}
            {actions?.(line)}
          </Stack>
        </Card>
      ))}
    </Stack>
  ) : (
    <Card withBorder padding={0}>
      <Table.ScrollContainer minWidth={1100}>
        <Table verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              <Table.Th>Policy as written</Table.Th>
              <Table.Th>Insured</Table.Th>
              <Table.Th>Matched policy</Table.Th>
              <Table.Th>Match</Table.Th>
              <Table.Th ta="right">Expected</Table.Th>
              <Table.Th ta="right">Paid</Table.Th>
              <Table.Th ta="right">Difference</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th>Note</Table.Th>
              {actions && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((line) => (
              <Table.Tr key={line.line_number}>
                <Table.Td style={TABULAR_FIGURES}>{line.line_number}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{line.raw_policy_number || '—'}</Table.Td>
                <Table.Td>{line.insured_name || '—'}</Table.Td>
                <Table.Td>
                  <MatchedPolicy line={line} />
                </Table.Td>
                <Table.Td>
                  <MethodBadge line={line} />
                </Table.Td>
                <Table.Td ta="right" style={TABULAR_FIGURES}>
                  {line.expected_commission === null ? '—' : <Money amount={line.expected_commission} />}
                </Table.Td>
                <Table.Td ta="right" style={TABULAR_FIGURES}>
                  <Money amount={line.paid_commission} />
                </Table.Td>
                <Table.Td ta="right">
                  <Difference amount={line.difference} />
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <OutcomeBadge outcome={line.outcome} />
                    <Resolution line={line} />
                  </Stack>
                </Table.Td>
                <Table.Td maw={200}>
                  <Text fz="sm" lineClamp={2}>
                    {line.note}
                  </Text>
                </Table.Td>
                {actions && <Table.Td w={1}>{actions(line)}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
