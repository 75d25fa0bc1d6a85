import type { CommissionStatementDetail } from '@coverdesk/contract';
import { Anchor, Card, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';

/** The insurer's policies whose commission fell due in the statement's period and no line names. */
export function MissingPolicies({ statement }: { statement: CommissionStatementDetail }) {
  return (
    <Card withBorder padding="lg" id="missing">
      <Stack gap="xs">
        <Title order={3} fz="h4">
          Missing from this statement ({statement.missing.length})
        </Title>
        <Text fz="sm" c="dimmed">
          This insurer's policies whose commission fell due after {formatDate(statement.period_after)} that no
          line names, with what the insurer owes on them.
        </Text>
        {statement.missing.length === 0 ? (
          <Text fz="sm">None: every policy due is on the statement.</Text>
        ) : (
          <Table verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Policy</Table.Th>
                <Table.Th>Customer</Table.Th>
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
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    <Money amount={policy.expected_commission} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
