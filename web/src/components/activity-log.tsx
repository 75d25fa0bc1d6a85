import {
  type AdminAuditEntry,
  type AuditEntry,
  auditActionLabel,
  auditEntityLabel,
  DEFAULT_PAGE_SIZE,
  type Paged,
} from '@coverdesk/contract';
import {
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconListSearch } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode, useState } from 'react';
import { formatDate, formatTime } from '../lib/format.js';
import type { ListParams } from '../lib/list-params.js';
import { useDevice } from '../lib/viewport.js';
import { ListCount } from './data-list.js';
import { EmptyState, ErrorState } from './page-states.js';

const ENTRIES = { one: 'entry', many: 'entries' };

/** A row of either log; the platform's also names the agency. */
type Entry = AuditEntry & Partial<Pick<AdminAuditEntry, 'tenant_name'>>;

/** Failures red, removals orange, additions green, the rest the primary colour. */
function actionColor(action: string) {
  if (action === 'sign_in_failed' || action === 'refresh_token_reused') return 'red';
  if (action === 'delete' || action.endsWith('cancelled')) return 'orange';
  if (action === 'create' || action === 'import') return 'green';
  return 'blue';
}

const when = (iso: string) => `${formatDate(iso)}, ${formatTime(iso)}`;

/** "Customer 01a2b3c4": what the action was on, by its kind and the start of its id. */
function record(entry: Entry) {
  if (!entry.entity) return '—';
  const label = auditEntityLabel(entry.entity);
  return entry.entity_id && entry.entity !== 'user' ? `${label} ${entry.entity_id.slice(0, 8)}` : label;
}

/** A field's value as a person reads it: nothing as a dash, lists joined, the rest as stored. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(shown).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** "first_name" reads "First name". */
const fieldLabel = (field: string) => (field.charAt(0).toUpperCase() + field.slice(1)).replaceAll('_', ' ');

/** The fields an action changed, before and after, and where it came from. */
function EntryDetails({ entry }: { entry: Entry }) {
  const changes = Object.entries(entry.changes ?? {});
  return (
    <Stack gap="xs">
      {entry.reason && (
        <Text fz="sm">
          <Text span fw={600}>
            Reason:{' '}
          </Text>
          {entry.reason}
        </Text>
      )}
      {changes.length > 0 && (
        <Table.ScrollContainer minWidth={260}>
          <Table withTableBorder fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map(([field, change]) => (
                <Table.Tr key={field}>
                  <Table.Td>{fieldLabel(field)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{shown(change.before)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{shown(change.after)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text fz="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
        {[
          entry.ip_address && `Address ${entry.ip_address}`,
          entry.user_agent,
          entry.request_id && `Request ${entry.request_id}`,
        ]
          .filter(Boolean)
          .join(' · ') || 'Recorded by a background job.'}
      </Text>
    </Stack>
  );
}

function ExpandButton({ open, onClick, entry }: { open: boolean; onClick(): void; entry: Entry }) {
  const Icon = open ? IconChevronDown : IconChevronRight;
  return (
    <UnstyledButton
      onClick={onClick}
      aria-expanded={open}
      aria-label={`${open ? 'Hide' : 'Show'} details of ${auditActionLabel(entry.action)} at ${when(entry.occurred_at)}`}
      w={44}
      h={44}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Icon size={18} aria-hidden />
    </UnstyledButton>
  );
}

/**
 * An audit log, newest first: a table on a desk and cards on a phone, each row opening onto the
 * fields it changed before and after; with loading, empty, no-match and error states and the pager.
 */
export function ActivityLog(props: {
  query: UseQueryResult<Paged<Entry>>;
  params: Pick<ListParams<string>, 'page' | 'narrowed' | 'set' | 'clear'>;
  /** The platform's log names each row's agency. */
  showAgency?: boolean;
  emptyText: ReactNode;
}) {
  const device = useDevice();
  const { query, params } = props;
  const [opened, setOpened] = useState<string | null>(null);
  const toggle = (id: string) => setOpened((was) => (was === id ? null : id));

  if (query.isError && !query.data)
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading">
        {[0, 1, 2, 3, 4].map((row) => (
          <Skeleton key={row} h={device === 'mobile' ? 96 : 44} radius="sm" />
        ))}
      </Stack>
    );
  }
  const { count, results } = query.data;
  if (count === 0 && !params.narrowed) {
    return (
      <EmptyState icon={IconListSearch} title="No activity yet">
        {props.emptyText}
      </EmptyState>
    );
  }
  if (count === 0) {
    return (
      <Card withBorder padding="lg">
        <Stack align="center" gap="xs">
          <Text fw={600}>No activity matches these filters.</Text>
          <Button variant="light" onClick={params.clear}>
            Clear filters
          </Button>
        </Stack>
      </Card>
    );
  }
  const pages = Math.max(1, Math.ceil(count / DEFAULT_PAGE_SIZE));
  const first = (params.page - 1) * DEFAULT_PAGE_SIZE + 1;
  const action = (entry: Entry) => (
    <Badge color={actionColor(entry.action)} variant="light" tt="none">
      {auditActionLabel(entry.action)}
    </Badge>
  );

  return (
    <Stack gap="sm" aria-busy={query.isFetching}>
      {device === 'mobile' ? (
        <Stack gap="xs">
          {results.map((entry) => (
            <Card key={entry.id} withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={4} miw={0}>
                  <Group gap="xs">
                    {action(entry)}
                    <Text fz="sm" fw={600}>
                      {record(entry)}
                    </Text>
                  </Group>
                  <Text fz="sm" style={{ wordBreak: 'break-word' }}>
                    {entry.actor_email ?? 'Nobody signed in'}
                    {props.showAgency && entry.tenant_name ? ` · ${entry.tenant_name}` : ''}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {when(entry.occurred_at)}
                  </Text>
                </Stack>
                <ExpandButton open={opened === entry.id} onClick={() => toggle(entry.id)} entry={entry} />
              </Group>
              <Collapse expanded={opened === entry.id}>
                <Stack pt="xs">
                  <EntryDetails entry={entry} />
                </Stack>
              </Collapse>
            </Card>
          ))}
        </Stack>
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" horizontalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={52}>
                    <VisuallyHidden>Details</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>When</Table.Th>
                  {props.showAgency && <Table.Th>Agency</Table.Th>}
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>Address</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((entry) => (
                  <Fragment key={entry.id}>
                    <Table.Tr>
                      <Table.Td py={0}>
                        <ExpandButton
                          open={opened === entry.id}
                          onClick={() => toggle(entry.id)}
                          entry={entry}
                        />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(entry.occurred_at)}</Table.Td>
                      {props.showAgency && <Table.Td>{entry.tenant_name ?? '—'}</Table.Td>}
                      <Table.Td style={{ wordBreak: 'break-word' }}>{entry.actor_email ?? '—'}</Table.Td>
                      <Table.Td>{action(entry)}</Table.Td>
                      <Table.Td>{record(entry)}</Table.Td>
                      <Table.Td>{entry.ip_address ?? '—'}</Table.Td>
                    </Table.Tr>
                    {opened === entry.id && (
                      <Table.Tr>
                        <Table.Td colSpan={props.showAgency ? 7 : 6} bg="var(--mantine-color-default-hover)">
                          <EntryDetails entry={entry} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <Group justify="space-between" gap="sm">
        <ListCount first={first} shown={results.length} count={count} noun={ENTRIES} />
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
    </Stack>
  );
}
