import type { ProducerShare } from '@coverdesk/contract';
import { Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { ExportButton } from '../../../components/export-button.js';
import { ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { useProducerShares, useProducerStatement } from '../api.js';
import { producerQuery } from '../producer-query.js';

// Producer shares: the report's commission for the period and insurer, per member credited with the
// policies (who wrote them, whoever looks after them now), with each member's share of it and their
// statement to download.

const NUMERIC = { ...TABULAR_FIGURES, whiteSpace: 'nowrap' } as const;

type Query = Record<string, string | number>;

const policiesText = (count: number) => `${count} ${count === 1 ? 'policy' : 'policies'}`;

/** A producer's statement as a PDF or a CSV; while one is being made, the other waits. */
function StatementButtons({
  producer,
  query,
}: {
  producer: ProducerShare & { user_id: string };
  query: Query;
}) {
  const pdf = useProducerStatement(producer.user_id, 'pdf');
  const csv = useProducerStatement(producer.user_id, 'csv');
  const disabled = pdf.isPending || csv.isPending;
  return (
    <Group gap="xs" wrap="nowrap" grow>
      <ExportButton
        exporting={pdf}
        query={{ ...query, format: 'pdf' }}
        label="PDF"
        format="PDF"
        icon={IconFileTypePdf}
        disabled={disabled}
        aria-label={`${producer.name}'s statement as PDF`}
      />
      <ExportButton
        exporting={csv}
        query={{ ...query, format: 'csv' }}
        label="CSV"
        format="CSV"
        icon={IconFileSpreadsheet}
        disabled={disabled}
        aria-label={`${producer.name}'s statement as CSV`}
      />
    </Group>
  );
}

const hasUser = (producer: ProducerShare): producer is ProducerShare & { user_id: string } =>
  producer.user_id !== null;

function ProducerTable({
  producers,
  totals,
  query,
}: {
  producers: ProducerShare[];
  totals: Omit<ProducerShare, 'user_id' | 'name'>;
  query: Query;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" horizontalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Producer</Table.Th>
            <Table.Th ta="right">Expected</Table.Th>
            <Table.Th ta="right">Share of expected</Table.Th>
            <Table.Th ta="right">Earned on payments</Table.Th>
            <Table.Th ta="right">Share of earned on payments</Table.Th>
            <Table.Th>Statement</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {producers.map((producer) => (
            <Table.Tr key={producer.user_id ?? 'unassigned'}>
              <Table.Td>
                <Text fz="sm" fw={600}>
                  {producer.name}
                </Text>
                <Text fz="xs" c="dimmed">
                  {policiesText(producer.policies)}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={producer.expected_commission} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={producer.producer_share_expected} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={producer.received_commission} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={producer.producer_share_received} />
              </Table.Td>
              <Table.Td>
                {hasUser(producer) ? (
                  <StatementButtons producer={producer} query={query} />
                ) : (
                  <Text fz="xs" c="dimmed">
                    Assign these policies to give them a producer
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Td>
              Total
              <Text fz="xs" c="dimmed" fw={400}>
                {policiesText(totals.policies)}
              </Text>
            </Table.Td>
            <Table.Td ta="right" style={NUMERIC}>
              <Money amount={totals.expected_commission} />
            </Table.Td>
            <Table.Td ta="right" style={NUMERIC}>
              <Money amount={totals.producer_share_expected} />
            </Table.Td>
            <Table.Td ta="right" style={NUMERIC}>
              <Money amount={totals.received_commission} />
            </Table.Td>
            <Table.Td ta="right" style={NUMERIC}>
              <Money amount={totals.producer_share_received} />
            </Table.Td>
            <Table.Td />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

function ProducerCard({
  producer,
  query,
  total = false,
}: {
  producer: Omit<ProducerShare, 'user_id'> & { user_id?: string | null };
  query: Query;
  total?: boolean;
}) {
  const figures = [
    ['Expected', producer.expected_commission],
    ['Share of expected', producer.producer_share_expected],
    ['Earned on payments', producer.received_commission],
    ['Share of earned on payments', producer.producer_share_received],
  ] as const;
  return (
    <Card withBorder padding="sm" bg={total ? 'gray.0' : undefined}>
      <Text fw={700} fz="sm">
        {producer.name}
      </Text>
      <Text fz="xs" c="dimmed" mb={6}>
        {policiesText(producer.policies)}
      </Text>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
        {figures.map(([label, amount]) => (
          <div key={label}>
            <Text fz="xs" c="dimmed">
              {label}
            </Text>
            <Text fz="sm" fw={600} style={NUMERIC}>
              <Money amount={amount} />
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {producer.user_id ? (
        <Stack mt="sm">
          <StatementButtons producer={{ ...producer, user_id: producer.user_id }} query={query} />
        </Stack>
      ) : null}
    </Card>
  );
}

function ProducersSkeleton() {
  return (
    <Stack gap="xs" aria-label="Loading producers">
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} h={36} />
      ))}
    </Stack>
  );
}

/**
 * Each producer's expected and received commission over the report's period and insurer, with
 * their share of each, a total, and their statement as PDF or CSV. On a phone, a card each.
 */
export function ProducerShares({ exportQuery }: { exportQuery: Query }) {
  const query = producerQuery(exportQuery);
  const shares = useProducerShares(query);
  const phone = useDevice() === 'mobile';
  const data = shares.data;
  return (
    <Card withBorder padding={phone ? 'sm' : 'md'} component="section" aria-labelledby="by-producer">
      <Title order={2} fz="h4" id="by-producer">
        Producers
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        The commission on the policies each member wrote, and their share of it (the policy's own split, else
        the member's share when it was written). Handing a book to someone else changes no one's credit. The
        period and insurer filters apply.
      </Text>
      {shares.isError && !data ? (
        <ErrorState
          error={shares.error}
          onRetry={() => void shares.refetch()}
          title="Producers could not be loaded"
        />
      ) : !data ? (
        <ProducersSkeleton />
      ) : data.results.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No policies in this period, so no producer has a share yet.
        </Text>
      ) : phone ? (
        <Stack gap="xs" style={{ opacity: shares.isPlaceholderData ? 0.6 : 1 }}>
          {data.results.map((producer) => (
            <ProducerCard key={producer.user_id ?? 'unassigned'} producer={producer} query={query} />
          ))}
          <ProducerCard producer={{ ...data.totals, name: 'Total' }} query={query} total />
        </Stack>
      ) : (
        <div style={{ opacity: shares.isPlaceholderData ? 0.6 : 1 }}>
          <ProducerTable producers={data.results} totals={data.totals} query={query} />
        </div>
      )}
    </Card>
  );
}
