import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { TABULAR_FIGURES } from '../../lib/format.js';

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
}) {
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
