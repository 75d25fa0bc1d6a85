import type { Paged } from '@coverdesk/contract';
import { DEFAULT_PAGE_SIZE } from '@coverdesk/contract';
import {
  Anchor,
  Button,
  Card,
  Group,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { TABULAR_FIGURES } from '../lib/format.js';
import type { ListParams } from '../lib/list-params.js';
import { useDevice } from '../lib/viewport.js';
import classes from './data-list.module.css';
import { ErrorState } from './page-states.js';

export interface Column<Row> {
  key: string;
  header: string;
  /** The `ordering` value that sorts by this column, when it sorts. */
  sort?: string;
  numeric?: boolean;
  /** How wide its text may grow before it is cut short (pixels); amounts are never cut. */
  maxWidth?: number;
  /** How wide it stays when the table is squeezed (pixels): the column a reader needs whole. */
  minWidth?: number;
  render(row: Row): ReactNode;
}

/** Wide enough for a name, an email or a policy number; beyond it the tooltip shows the rest. */
const DEFAULT_MAX_WIDTH = 240;
const NUMERIC_CELL = { ...TABULAR_FIGURES, whiteSpace: 'nowrap' } as const;

/** What a list's rows are called, one and many: "1 customer", "1–25 of 40 customers". */
export interface Noun {
  one: string;
  many: string;
}

/** Which rows of how many a page shows: "1 entry", "1–3 of 3 entries", "26–40 of 40 entries". */
export function ListCount({
  first,
  shown,
  count,
  noun,
}: {
  first: number;
  shown: number;
  count: number;
  noun: Noun;
}) {
  return (
    <Text fz="sm" c="dimmed" aria-live="polite">
      {count === 1 ? `1 ${noun.one}` : `${first}–${first + shown - 1} of ${count} ${noun.many}`}
    </Text>
  );
}

interface DataListProps<Row extends { id: string }> {
  /** What the rows are, for screen readers and the counts. */
  noun: Noun;
  query: UseQueryResult<Paged<Row>>;
  params: Pick<ListParams<string>, 'page' | 'ordering' | 'narrowed' | 'set' | 'clear'>;
  columns: Column<Row>[];
  /** Where a row leads; the first column links there. */
  href(row: Row): string;
  /** The body of a row's card on a phone: the two or three fields that identify it. */
  card(row: Row): ReactNode;
  /** A button of a row's own on a phone card (a table row puts it in a column), outside the card's link. */
  cardAction?(row: Row): ReactNode;
  /** Shown when the agency has none yet (nothing narrows the list). */
  empty: ReactNode;
  /** The card action is one small icon: beside the card's text rather than on a row of its own. */
  cardActionBeside?: boolean;
  /** Closer columns, for a table of many figures that should still fit a desk's screen. */
  dense?: boolean;
}

/**
 * A server-paged list: a sortable table on a desk, cards on a phone, with loading, empty,
 * no-match and error states and the pager below.
 */
export function DataList<Row extends { id: string }>(props: DataListProps<Row>) {
  const device = useDevice();
  const { query, params } = props;
  const count = query.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / DEFAULT_PAGE_SIZE));
  // A page past the end (rows deleted, an old link) moves to the last page there is.
  useEffect(() => {
    if (count > 0 && params.page > pages) params.set({ page: pages });
  }, [count, pages, params]);

  if (query.isError && !query.data)
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <LoadingRows phone={device === 'mobile'} />;

  const { results } = query.data;
  if (count === 0 && !params.narrowed) return <>{props.empty}</>;
  const first = (params.page - 1) * DEFAULT_PAGE_SIZE + 1;

  return (
    <Stack gap="sm" aria-busy={query.isFetching}>
      {count === 0 ? (
        <Card withBorder padding="lg">
          <Stack align="center" gap="xs">
            <Text fw={600}>No {props.noun.many} match this search.</Text>
            <Button variant="light" onClick={params.clear}>
              Clear search and filters
            </Button>
          </Stack>
        </Card>
      ) : device === 'mobile' ? (
        <Stack gap="xs">
          {results.map((row) =>
            props.cardAction && props.cardActionBeside ? (
              <Card key={row.id} withBorder padding="sm">
                <Group wrap="nowrap" align="flex-start" gap="xs">
                  <UnstyledButton component={Link} to={props.href(row)} mih={44} flex={1} miw={0}>
                    {props.card(row)}
                  </UnstyledButton>
                  {props.cardAction(row)}
                </Group>
              </Card>
            ) : props.cardAction ? (
              <Card key={row.id} withBorder padding="sm">
                <UnstyledButton component={Link} to={props.href(row)} mih={44} display="block">
                  {props.card(row)}
                </UnstyledButton>
                <Group justify="flex-end" mt="xs">
                  {props.cardAction(row)}
                </Group>
              </Card>
            ) : (
              <Card key={row.id} withBorder padding="sm" component={Link} to={props.href(row)} mih={44}>
                {props.card(row)}
              </Card>
            ),
          )}
        </Stack>
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={640}>
            <Table highlightOnHover verticalSpacing="sm" horizontalSpacing={props.dense ? 'xs' : 'sm'}>
              <Table.Thead>
                <Table.Tr>
                  {props.columns.map((column) => (
                    <HeaderCell key={column.key} column={column} params={params} />
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((row) => (
                  <Table.Tr key={row.id}>
                    {props.columns.map((column, index) => (
                      <Table.Td
                        key={column.key}
                        ta={column.numeric ? 'right' : undefined}
                        style={column.numeric ? NUMERIC_CELL : { minWidth: column.minWidth }}
                      >
                        {column.numeric ? (
                          cellValue(column, row, index === 0 && props.href(row))
                        ) : (
                          <OneLine maxWidth={column.maxWidth ?? DEFAULT_MAX_WIDTH}>
                            {cellValue(column, row, index === 0 && props.href(row))}
                          </OneLine>
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {count > 0 && (
        <Group justify="space-between" gap="sm">
          <ListCount first={first} shown={results.length} count={count} noun={props.noun} />
          {pages > 1 && (
            <Pagination
              total={pages}
              value={Math.min(params.page, pages)}
              onChange={(page) => params.set({ page })}
              size="sm"
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            />
          )}
        </Group>
      )}
    </Stack>
  );
}

/** A cell's value; the first column's is the link to the row's record. */
function cellValue<Row>(column: Column<Row>, row: Row, href: string | false): ReactNode {
  if (!href) return column.render(row);
  return (
    <Anchor component={Link} to={href} fw={600}>
      {column.render(row)}
    </Anchor>
  );
}

/**
 * A cell's text on one line; when it had to be cut short, pointing at it (or focusing its link)
 * shows it whole.
 */
function OneLine({ maxWidth, children }: { maxWidth: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [whole, setWhole] = useState<string | null>(null);
  // Measured when the pointer arrives, not on every render: twenty rows of cells add up.
  const measure = () => {
    const cell = ref.current;
    if (!cell) return;
    const cut = [cell, ...cell.querySelectorAll('*')].some((node) => node.scrollWidth > node.clientWidth);
    // innerText keeps a two-line cell's lines apart ("1 Jan 2026" / "to 31 Dec 2026"); textContent runs them together.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines are what the tooltip repeats
    setWhole(cut ? cell.innerText : null);
  };
  return (
    <Tooltip
      label={whole}
      disabled={!whole}
      multiline
      maw={360}
      openDelay={200}
      style={{ whiteSpace: 'pre-line' }}
    >
      <div
        ref={ref}
        className={classes.oneLine}
        style={{ maxWidth }}
        onPointerOver={measure}
        onFocusCapture={measure}
      >
        {children}
      </div>
    </Tooltip>
  );
}

function HeaderCell<Row>({
  column,
  params,
}: {
  column: Column<Row>;
  params: DataListProps<{ id: string }>['params'];
}) {
  const align = column.numeric ? 'right' : undefined;
  if (!column.sort) return <Table.Th ta={align}>{column.header}</Table.Th>;
  const active = params.ordering.replace(/^-/, '') === column.sort;
  const descending = active && params.ordering.startsWith('-');
  const Icon = !active ? IconArrowsSort : descending ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th ta={align} aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton
        onClick={() =>
          params.set({ ordering: active && !descending ? `-${column.sort}` : (column.sort ?? null) })
        }
        fw={700}
        fz="sm"
      >
        <Group gap={4} wrap="nowrap" justify={column.numeric ? 'flex-end' : undefined}>
          {column.header}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function LoadingRows({ phone }: { phone: boolean }) {
  return (
    <Stack gap="xs" aria-busy="true" aria-label="Loading">
      {Array.from({ length: 6 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={index} h={phone ? 72 : 44} radius="sm" />
      ))}
    </Stack>
  );
}
