import { COMMISSION_PAYMENT_METHOD_LABELS, type CommissionCompanySummary } from '@coverdesk/contract';
import { BarChart } from '@mantine/charts';
import { Anchor, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money, useFormatMoney } from '../../../lib/money.js';
import { useSession } from '../../../lib/session-context.js';
import { useDevice } from '../../../lib/viewport.js';

const NUMERIC = { ...TABULAR_FIGURES, whiteSpace: 'nowrap' } as const;
/** Room for one insurer's pair of bars and its name beside them. */
const BAR_ROW_HEIGHT = 56;

interface InsurerSummaryProps {
  insurers: CommissionCompanySummary[];
  /** Narrows the report to one insurer, to check it against that insurer's statement. */
  onChoose(companyId: string): void;
}

/** Each insurer's share of the period: a chart of expected against received, and its figures. */
export function InsurerSummary({ insurers, onChoose }: InsurerSummaryProps) {
  const phone = useDevice() === 'mobile';
  return (
    <Card withBorder padding={phone ? 'sm' : 'md'} component="section" aria-labelledby="by-insurer">
      <Title order={2} fz="h4" id="by-insurer" mb="sm">
        By insurer
      </Title>
      <InsurerChart insurers={insurers} />
      {phone ? (
        <Stack gap="xs" mt="md">
          {insurers.map((insurer) => (
            <InsurerCard key={insurer.company_id} insurer={insurer} onChoose={onChoose} />
          ))}
        </Stack>
      ) : (
        <InsurerTable insurers={insurers} onChoose={onChoose} />
      )}
    </Card>
  );
}

/** Expected and received side by side per insurer; the same numbers are in the table below it. */
function InsurerChart({ insurers }: { insurers: CommissionCompanySummary[] }) {
  const formatMoney = useFormatMoney();
  const currency = useSession().state.user?.currency ?? 'USD';
  // The scale reads "$1.5K"; the bars' own amounts, to the cent, are in the tooltip and the table.
  const scale = new Intl.NumberFormat(undefined, { style: 'currency', currency, notation: 'compact' });
  const data = insurers.map((insurer) => ({
    insurer: insurer.company_name,
    expected: Number(insurer.total_expected_commission),
    received: Number(insurer.total_received_commission),
  }));
  return (
    <BarChart
      h={40 + BAR_ROW_HEIGHT * insurers.length}
      data={data}
      dataKey="insurer"
      orientation="vertical"
      series={[
        { name: 'expected', label: 'Expected', color: 'indigo.3' },
        { name: 'received', label: 'Earned on payments', color: 'teal.7' },
      ]}
      valueFormatter={(value) => formatMoney(value.toFixed(2))}
      xAxisProps={{ tickFormatter: (value: number) => scale.format(value) }}
      yAxisProps={{ width: 120 }}
      gridAxis="x"
      withLegend
      legendProps={{ verticalAlign: 'top', height: 32 }}
      role="img"
      aria-label="Commission expected and earned on customer payments by insurer; the figures are in the table below"
    />
  );
}

function ChooseInsurer({
  insurer,
  onChoose,
  touch = false,
}: { insurer: CommissionCompanySummary; touch?: boolean } & Pick<InsurerSummaryProps, 'onChoose'>) {
  return (
    <Anchor
      component="button"
      type="button"
      mih={touch ? 44 : undefined}
      fw={600}
      fz="sm"
      ta="left"
      onClick={() => onChoose(insurer.company_id)}
      aria-label={`Show only ${insurer.company_name}`}
    >
      {insurer.company_name}
    </Anchor>
  );
}

function InsurerTable({ insurers, onChoose }: Pick<InsurerSummaryProps, 'insurers' | 'onChoose'>) {
  return (
    <Table.ScrollContainer minWidth={640} mt="md">
      <Table verticalSpacing="xs" horizontalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Insurer</Table.Th>
            <Table.Th ta="right">Policies</Table.Th>
            <Table.Th ta="right">Premium</Table.Th>
            <Table.Th ta="right">Expected</Table.Th>
            <Table.Th ta="right">Earned on payments</Table.Th>
            <Table.Th ta="right">Outstanding</Table.Th>
            <Table.Th ta="right">Earned on payments %</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {insurers.map((insurer) => (
            <Table.Tr key={insurer.company_id}>
              <Table.Td>
                <ChooseInsurer insurer={insurer} onChoose={onChoose} />
                <Text fz="xs" c="dimmed">
                  {COMMISSION_PAYMENT_METHOD_LABELS[insurer.commission_payment_method]}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                {insurer.total_policies}
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={insurer.total_premium} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={insurer.total_expected_commission} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={insurer.total_received_commission} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                <Money amount={insurer.outstanding_commission} />
              </Table.Td>
              <Table.Td ta="right" style={NUMERIC}>
                {insurer.commission_received_percentage}%
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function InsurerCard({
  insurer,
  onChoose,
}: { insurer: CommissionCompanySummary } & Pick<InsurerSummaryProps, 'onChoose'>) {
  const figures = [
    ['Expected', insurer.total_expected_commission],
    ['Earned on payments', insurer.total_received_commission],
    ['Outstanding', insurer.outstanding_commission],
  ] as const;
  return (
    <Card withBorder padding="sm" pt={4}>
      <ChooseInsurer insurer={insurer} onChoose={onChoose} touch />
      <Text fz="xs" c="dimmed" style={NUMERIC} mb={6}>
        {insurer.total_policies} {insurer.total_policies === 1 ? 'policy' : 'policies'} ·{' '}
        {insurer.commission_received_percentage}% earned on payments
      </Text>
      <SimpleGrid cols={3} spacing="xs">
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
    </Card>
  );
}
