import { type AdminTicketSummary, TICKET_CATEGORY_LABELS, type TicketStatus } from '@coverdesk/contract';
import { Badge, Group, Select, Stack, Tabs, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { type Column, DataList } from '../../../components/data-list.js';
import { ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate, formatTime } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useInbox, useSupportAdmins } from '../api.js';
import { TicketStatusBadge } from '../components/ticket-status-badge.js';

const FILTERS = ['status', 'assignee'] as const;
const TABS: { value: TicketStatus | 'all'; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
];

const EMPTY: Record<TicketStatus | 'all', { title: string; text: string }> = {
  open: { title: 'Nothing waits for an answer', text: 'Every ticket is answered or resolved.' },
  pending: {
    title: 'No ticket waits on its requester',
    text: 'Tickets you answered show here until the agency replies or you resolve them.',
  },
  resolved: { title: 'No resolved tickets yet', text: 'Tickets you resolve show here.' },
  all: {
    title: 'No tickets yet',
    text: 'Tickets agencies open at /support and messages from the public contact form arrive here.',
  },
};

const lastActivity = (ticket: AdminTicketSummary) =>
  `${formatDate(ticket.last_reply_at)} ${formatTime(ticket.last_reply_at)}`;

/** Who asked: the agency and its broker, or the contact form's visitor and their company. */
function Requester({ ticket }: { ticket: AdminTicketSummary }) {
  return (
    <div>
      <Group gap={6} wrap="nowrap">
        <Text fz="sm" truncate>
          {ticket.agency_name ?? ticket.company ?? ticket.opened_by_name}
        </Text>
        {ticket.from_contact_form && (
          <Badge size="xs" color="gray" variant="outline" radius="sm">
            Contact form
          </Badge>
        )}
      </Group>
      <Text fz="xs" c="gray.7" truncate>
        {ticket.opened_by_name} · {ticket.requester_email}
      </Text>
    </div>
  );
}

const columns: Column<AdminTicketSummary>[] = [
  { key: 'subject', header: 'Subject', maxWidth: 320, render: (ticket) => ticket.subject },
  { key: 'from', header: 'From', maxWidth: 280, render: (ticket) => <Requester ticket={ticket} /> },
  { key: 'category', header: 'Category', render: (ticket) => TICKET_CATEGORY_LABELS[ticket.category] },
  { key: 'status', header: 'Status', render: (ticket) => <TicketStatusBadge status={ticket.status} admin /> },
  { key: 'assignee', header: 'Assigned to', render: (ticket) => ticket.assigned_to_name ?? '—' },
  { key: 'activity', header: 'Last activity', render: lastActivity },
];

/**
 * /admin/support: the inbox of every agency's tickets and the contact form's messages, by status,
 * by who handles them, and searched; the open ones first.
 */
export function Component() {
  const params = useListParams(FILTERS, '-last_reply_at');
  // The inbox opens on what needs an answer: the open tickets.
  const status = TABS.find((tab) => tab.value === params.filters.status)?.value ?? 'open';
  const { status: _chosen, ...unfiltered } = params.query;
  const inbox = useInbox(status === 'all' ? unfiltered : { ...unfiltered, status });
  // The tab is where the inbox is, not a narrowing of it: an empty tab says so rather than "no match".
  const narrowed = Boolean(params.search || params.filters.assignee);
  const admins = useSupportAdmins();
  const assigneeOptions = [
    { value: 'me', label: 'Me' },
    { value: 'none', label: 'Nobody yet' },
    ...(admins.data ?? []).map((admin) => ({ value: admin.id, label: admin.name })),
  ];
  return (
    <Stack>
      <Tabs
        value={status}
        onChange={(value) => params.set({ status: value === 'open' ? null : value })}
        keepMounted={false}
      >
        <Tabs.List>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value} mih={44}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <ListToolbar
        params={{ ...params, narrowed }}
        searchLabel="Search subject, person or agency"
        filters={
          <Select
            label="Assigned to"
            placeholder="Anyone"
            data={assigneeOptions}
            value={params.filters.assignee ?? null}
            onChange={(value) => params.set({ assignee: value })}
            clearable
            w={{ base: '100%', sm: 200 }}
          />
        }
      />
      <DataList
        noun={{ one: 'ticket', many: 'tickets' }}
        query={inbox}
        params={{ ...params, narrowed }}
        columns={columns}
        href={(ticket) => `/admin/support/${ticket.id}`}
        card={(ticket) => (
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} lineClamp={2}>
                {ticket.subject}
              </Text>
              <TicketStatusBadge status={ticket.status} admin />
            </Group>
            <Requester ticket={ticket} />
            <Text fz="xs" c="gray.7">
              {ticket.assigned_to_name ? `With ${ticket.assigned_to_name}` : 'Not assigned'} ·{' '}
              {lastActivity(ticket)}
            </Text>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconInbox} title={EMPTY[status].title}>
            {EMPTY[status].text}
          </EmptyState>
        }
      />
    </Stack>
  );
}
