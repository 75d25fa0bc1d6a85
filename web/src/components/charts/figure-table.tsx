import { Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { TABULAR_FIGURES } from '../../lib/format.js';
import { useDevice } from '../../lib/viewport.js';

export interface FigureColumn<Row> {
  header: string;
  numeric?: boolean;
  /** Kept on one line (a month, a short name), like amounts. */
  nowrap?: boolean;
  render(row: Row): ReactNode;
}

const NUMERIC_CELL = { ...TABULAR_FIGURES, whiteSpace: 'nowrap' } as const;

/** The figures behind a chart, for reading and for screen readers: amounts right-aligned. */
export function FigureTable<Row>(props: {
  /** What the table lists, read out by screen readers. */
  caption: string;
  rows: readonly Row[];
  rowKey(row: Row): string;
  columns: FigureColumn<Row>[];
  /** A last row summing the columns, when the sum means something. */
  total?: ReactNode[];
  /** Too many columns for a phone: there each row becomes a card of labelled figures. */
  cardsOnPhone?: boolean;
}) {
  const device = useDevice();
  if (props.cardsOnPhone && device === 'mobile') return <FigureCards {...props} />;
  const cell = (column: FigureColumn<Row>) =>
    column.numeric
      ? { ta: 'right' as const, style: NUMERIC_CELL }
      : column.nowrap
        ? { style: { whiteSpace: 'nowrap' as const } }
        : {};
  return (
    <Table verticalSpacing={6} horizontalSpacing="xs" fz="sm" striped aria-label={props.caption}>
      <Table.Thead>
        <Table.Tr>
          {props.columns.map((column) => (
            <Table.Th key={column.header} {...cell(column)}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((row) => (
          <Table.Tr key={props.rowKey(row)}>
            {props.columns.map((column) => (
              <Table.Td key={column.header} {...cell(column)}>
                {column.render(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
      {props.total && (
        <Table.Tfoot>
          <Table.Tr fw={600}>
            {props.columns.map((column, index) => (
              <Table.Td key={column.header} {...cell(column)}>
                {props.total?.[index]}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      )}
    </Table>
  );
}

/** A phone's form of a wide table: one card per row, its first column as the title, the rest labelled. */
function FigureCards<Row>(props: {
  caption: string;
  rows: readonly Row[];
  rowKey(row: Row): string;
  columns: FigureColumn<Row>[];
  total?: ReactNode[];
}) {
  const [title, ...figures] = props.columns;
  const card = (key: string, heading: ReactNode, values: ReactNode[]) => (
    <Paper component="li" key={key} withBorder radius="sm" p="xs">
      <Text fz="sm" fw={600}>
        {heading}
      </Text>
      <SimpleGrid component="dl" cols={2} spacing="xs" verticalSpacing={4} m={0} mt={4}>
        {figures.map((column, index) => (
          <div key={column.header}>
            <Text component="dt" fz="xs" c="dimmed">
              {column.header}
            </Text>
            <Text component="dd" fz="sm" m={0} style={column.numeric ? NUMERIC_CELL : undefined}>
              {values[index]}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label={props.caption} style={{ listStyle: 'none' }}>
      {props.rows.map((row) =>
        card(
          props.rowKey(row),
          title?.render(row),
          figures.map((column) => column.render(row)),
        ),
      )}
      {props.total && card('total', props.total[0], props.total.slice(1))}
    </Stack>
  );
}
