import { type CommissionStatementDetail, STATEMENT_MISSING_SHOWN } from '@coverdesk/contract';
import { Anchor, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { FigureLabel } from '../../../components/figure-label.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';

/** "March 2026": the month a policy's commission fell due, as a broker groups what is owed. */
const month = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * The insurer's policies owed commission by the statement's date and not yet paid by an accepted
 * statement, whatever month it fell due, that no line names.
 */
export function MissingPolicies({ statement }: { statement: CommissionStatementDetail }) {
  const mobile = useDevice() === 'mobile';
  const total = statement.counts.missing;
  const dueMonth = (iso: string) => (
    <Text inherit span title={formatDate(iso)}>
      {month(iso)}
    </Text>
  );
  return (
    <Card withBorder padding="lg" id="missing">
      <Stack gap="xs">
        <Title order={3} fz="h4">
          <FigureLabel label="Missing from this statement" figure="statement_missing" /> ({total})
        </Title>
        <Text fz="sm" c="dimmed">
          This insurer's policies owed commission by {formatDate(statement.statement_date)} that no accepted
          statement has paid and no line names, whatever month it fell due, the oldest first.
        </Text>
        {total === 0 ? (
          <Text fz="sm">None: every policy owed by the statement's date is on it or already paid.</Text>
        ) : mobile ? (
          <Stack gap={6}>
            {statement.missing.map((policy) => (
              <Group key={policy.policy_id} justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={0}>
                  <Anchor component={Link} to={`/policies/${policy.policy_id}`} fz="sm">
                    {policy.policy_number}
                  </Anchor>
                  <Text fz="xs" c="dimmed">
                    {policy.customer_name} · due {dueMonth(policy.due_since)}
                  </Text>
                </Stack>
                <Text fz="sm" style={TABULAR_FIGURES}>
                  <Money amount={policy.expected_commission} />
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <Table verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Policy</Table.Th>
                <Table.Th>Customer</Table.Th>
                <Table.Th>Fell due</Table.Th>
                <Table.Th ta="right">Should have paid</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {statement.missing.map((policy) => (
                <Table.Tr key={policy.policy_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/policies/${policy.policy_id}`} fz="sm">
                      {policy.policy_number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{policy.customer_name}</Table.Td>
                  <Table.Td>{dueMonth(policy.due_since)}</Table.Td>
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    <Money amount={policy.expected_commission} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {total > statement.missing.length && (
          <Text fz="sm" c="dimmed">
            The oldest {STATEMENT_MISSING_SHOWN} of {total.toLocaleString('en-US')} are shown.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
