import { COMMISSION_PAYMENT_METHOD_LABELS, type InsurerOwedAges } from '@coverdesk/contract';
import { Anchor, Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { Link } from 'react-router';
import { FigureLabel } from '../../../components/figure-label.js';
import { ErrorState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { useInsurersOwed } from '../api.js';

// What insurers owe the agency today, by how long each part has been owed: the list a broker
// chases insurers with. Its figures are the report rows' "Owed by insurer", summed per insurer.

const NUMERIC = { ...TABULAR_FIGURES, whiteSpace: 'nowrap' } as const;

type Figures = Omit<
  InsurerOwedAges,
  'company_id' | 'company_name' | 'commission_payment_method' | 'reconciled'
>;

/** An insurer Coverdesk has no accepted statement from: what it paid is not known yet. */
const NO_STATEMENT = 'No statement accepted yet';

const AGES: [keyof Figures, string][] = [
  ['days_0_30', '0–30 days'],
  ['days_31_60', '31–60 days'],
  ['days_61_90', '61–90 days'],
  ['days_over_90', 'Over 90 days'],
  ['overpaid', 'Overpaid'],
];

function AgesTable({ insurers, totals }: { insurers: InsurerOwedAges[]; totals: Figures }) {
  const figureCells = (row: Figures) => (
    <>
      <Table.Td ta="right" style={NUMERIC}>
        <Money amount={row.insurer_paid} />
      </Table.Td>
      {AGES.map(([key]) => (
        <Table.Td
          key={key}
          ta="right"
          style={NUMERIC}
          c={key === 'days_over_90' && row[key] !== '0.00' ? 'red.9' : undefined}
        >
          <Money amount={row[key]} />
        </Table.Td>
      ))}
      <Table.Td ta="right" style={NUMERIC} fw={700}>
        <Money amount={row.owed_by_insurer} />
      </Table.Td>
    </>
  );
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="xs" horizontalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Insurer</Table.Th>
            <Table.Th ta="right">
              <FigureLabel label="Paid by insurer" figure="insurer_paid" />
            </Table.Th>
            {AGES.map(([key, label]) => (
              <Table.Th key={key} ta="right">
                {label}
              </Table.Th>
            ))}
            <Table.Th ta="right">
              <FigureLabel label="Owed by insurer" figure="owed_by_insurer" />
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {insurers.map((insurer) => (
            <Table.Tr key={insurer.company_id}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/commission-statements?company_id=${insurer.company_id}`}
                  fw={600}
                  fz="sm"
                >
                  {insurer.company_name}
                </Anchor>
                <Text fz="xs" c="dimmed">
                  {COMMISSION_PAYMENT_METHOD_LABELS[insurer.commission_payment_method]}
                  {insurer.reconciled ? '' : ` · ${NO_STATEMENT}`}
                </Text>
              </Table.Td>
              {figureCells(insurer)}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Td>Total</Table.Td>
            {figureCells(totals)}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

function AgesCard({
  name,
  method,
  row,
  total = false,
}: {
  name: string;
  method?: string;
  row: Figures;
  total?: boolean;
}) {
  return (
    <Card withBorder padding="sm" bg={total ? 'gray.0' : undefined}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Text fw={700} fz="sm">
            {name}
          </Text>
          {method && (
            <Text fz="xs" c="dimmed">
              {method}
            </Text>
          )}
        </div>
        <div style={{ textAlign: 'right' }}>
          <Text fz="xs" c="dimmed">
            Owed by insurer
          </Text>
          <Text fw={700} style={NUMERIC}>
            <Money amount={row.owed_by_insurer} />
          </Text>
        </div>
      </Group>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} mt={6}>
        {[['insurer_paid', 'Paid by insurer'] as const, ...AGES].map(([key, label]) => (
          <div key={key}>
            <Text fz="xs" c="dimmed">
              {label}
            </Text>
            <Text fz="sm" fw={600} style={NUMERIC}>
              <Money amount={row[key]} />
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/**
 * What each insurer owes today, aged 0-30, 31-60, 61-90 and over 90 days, with what its accepted
 * statements paid and what it overpaid; a total; each insurer's statements a click away.
 */
export function InsurersOwed({ companyId }: { companyId: string | undefined }) {
  const owed = useInsurersOwed(companyId);
  const phone = useDevice() === 'mobile';
  const data = owed.data;
  return (
    <Card withBorder padding={phone ? 'sm' : 'md'} component="section" aria-labelledby="insurers-owe">
      <Group justify="space-between" align="flex-start" gap="xs" mb="sm">
        <div>
          <Title order={2} fz="h4" id="insurers-owe">
            What insurers owe
          </Title>
          <Text fz="sm" c="dimmed">
            {data ? `Today, ${formatDate(data.as_of)}` : 'Today'}, by how long it has been owed, whatever the
            period above. Accepted statements settle the oldest first.
          </Text>
        </div>
        <Button
          component={Link}
          to="/commission-statements"
          variant="default"
          size="xs"
          leftSection={<IconFileInvoice size={16} aria-hidden />}
        >
          Reconcile a statement
        </Button>
      </Group>
      {owed.isError && !data ? (
        <ErrorState
          error={owed.error}
          onRetry={() => void owed.refetch()}
          title="What insurers owe could not be loaded"
        />
      ) : !data ? (
        <Stack gap="xs" aria-label="Loading what insurers owe">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} h={36} />
          ))}
        </Stack>
      ) : data.results.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Your insurers owe you nothing today.
        </Text>
      ) : phone ? (
        <Stack gap="xs" style={{ opacity: owed.isPlaceholderData ? 0.6 : 1 }}>
          {data.results.map((insurer) => (
            <AgesCard
              key={insurer.company_id}
              name={insurer.company_name}
              method={`${COMMISSION_PAYMENT_METHOD_LABELS[insurer.commission_payment_method]}${insurer.reconciled ? '' : ` · ${NO_STATEMENT}`}`}
              row={insurer}
            />
          ))}
          <AgesCard name="Total" row={data.totals} total />
        </Stack>
      ) : (
        <div style={{ opacity: owed.isPlaceholderData ? 0.6 : 1 }}>
          <AgesTable insurers={data.results} totals={data.totals} />
        </div>
      )}
      {data?.results.some((insurer) => !insurer.reconciled) && (
        <Text fz="xs" c="dimmed" mt="xs">
          {NO_STATEMENT}: Coverdesk knows nothing that insurer paid, so all the commission it ever owed reads
          as owed. Accept its commission statements to settle what it paid.
        </Text>
      )}
    </Card>
  );
}
