import {
  TICKET_CATEGORY_LABELS,
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
  type TicketSummary,
} from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconLifebuoy, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate, formatTime } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useTickets } from '../api.js';
import { TicketStatusBadge } from '../components/ticket-status-badge.js';

const FILTERS = ['status'] as const;
const STATUS_OPTIONS = TICKET_STATUSES.map((value) => ({ value, label: TICKET_STATUS_LABELS[value] }));

const lastActivity = (ticket: TicketSummary) =>
  `${formatDate(ticket.last_reply_at)} ${formatTime(ticket.last_reply_at)}`;

const columns: Column<TicketSummary>[] = [
  { key: 'subject', header: 'Subject', maxWidth: 360, render: (ticket) => ticket.subject },
  { key: 'category', header: 'Category', render: (ticket) => TICKET_CATEGORY_LABELS[ticket.category] },
  { key: 'status', header: 'Status', render: (ticket) => <TicketStatusBadge status={ticket.status} /> },
  { key: 'opened_by', header: 'Opened by', render: (ticket) => ticket.opened_by_name },
  { key: 'activity', header: 'Last activity', render: lastActivity },
];

const newTicket = (
  <Button component={Link} to="/support/new" leftSection={<IconPlus size={16} aria-hidden />} mih={44}>
    New ticket
  </Button>
);

/** /support: the agency's tickets, the ones waiting on Coverdesk or on the agency, and the way to ask. */
export function Component() {
  const params = useListParams(FILTERS, '-last_reply_at');
  const tickets = useTickets(params.query);
  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="Search subjects"
        action={newTicket}
        filters={
          <FilterSelect
            params={params}
            name="status"
            label="Status"
            placeholder="Any status"
            data={STATUS_OPTIONS}
            width={180}
          />
        }
      />
      <DataList
        noun={{ one: 'ticket', many: 'tickets' }}
        query={tickets}
        params={params}
        columns={columns}
        href={(ticket) => `/support/${ticket.id}`}
        card={(ticket) => (
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} lineClamp={2}>
                {ticket.subject}
              </Text>
              <TicketStatusBadge status={ticket.status} />
            </Group>
            <Text fz="sm" c="gray.7">
              {TICKET_CATEGORY_LABELS[ticket.category]} · {ticket.opened_by_name} · {lastActivity(ticket)}
            </Text>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconLifebuoy} title="No tickets yet" action={newTicket}>
            Ask us anything about Coverdesk: a problem, a question about your bill or your account, or a
            feature you would like. Everyone in your agency sees the tickets and our answers, and we email
            whoever asked when we reply.
          </EmptyState>
        }
      />
    </Stack>
  );
}
