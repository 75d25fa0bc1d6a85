import { TICKET_STATUS_LABELS, type TicketStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

const COLORS: Record<TicketStatus, string> = { open: 'blue', pending: 'orange', resolved: 'green' };

/** What the admins call a ticket waiting on its requester; the broker reads "Waiting on you". */
const ADMIN_LABELS: Record<TicketStatus, string> = { open: 'Open', pending: 'Pending', resolved: 'Resolved' };

export function TicketStatusBadge({ status, admin = false }: { status: TicketStatus; admin?: boolean }) {
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm">
      {(admin ? ADMIN_LABELS : TICKET_STATUS_LABELS)[status]}
    </Badge>
  );
}
