import { TICKET_CATEGORY_LABELS } from '@coverdesk/contract';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { BackLink } from '../../../components/back-link.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { useReply, useTicket } from '../api.js';
import { ReplyForm } from '../components/reply-form.js';
import { TicketStatusBadge } from '../components/ticket-status-badge.js';
import { TicketThread } from '../components/ticket-thread.js';

const WHAT_NEXT = {
  open: 'With Coverdesk support: we will answer here and by email.',
  pending: 'We answered and are waiting for you. Reply below if something is still not right.',
  resolved: 'Resolved. Reply below if it is not, and the ticket opens again.',
} as const;

/** /support/{id}: one ticket's conversation with Coverdesk support, and the box to reply. */
export function Component() {
  const { id = '' } = useParams();
  const ticket = useTicket(id);
  const reply = useReply(id, 'broker');
  if (ticket.isPending) return <DetailSkeleton />;
  if (ticket.isError)
    return (
      <ErrorState
        error={ticket.error}
        onRetry={() => void ticket.refetch()}
        back={{ to: '/support', label: 'Back to tickets' }}
      />
    );
  const { data } = ticket;
  return (
    <Stack maw={900}>
      <BackLink to="/support">All tickets</BackLink>
      <Card withBorder padding="lg">
        <Stack gap={6}>
          <Group justify="space-between" align="flex-start" gap="xs">
            <Title order={2} fz="h4" style={{ overflowWrap: 'anywhere' }}>
              {data.subject}
            </Title>
            <TicketStatusBadge status={data.status} />
          </Group>
          <Text fz="sm" c="gray.7">
            {TICKET_CATEGORY_LABELS[data.category]} · opened by {data.opened_by_name} on{' '}
            {formatDate(data.created_at)}
          </Text>
          <Text fz="sm">{WHAT_NEXT[data.status]}</Text>
        </Stack>
      </Card>
      <TicketThread
        messages={data.messages}
        attachmentPath={(file) => `/support/tickets/${data.id}/attachments/${file.id}/`}
      />
      <ReplyForm
        send={(values) => reply.mutateAsync(values)}
        description="Everyone in your agency sees your reply, and so does Coverdesk support."
        sentMessage="Reply sent."
      />
    </Stack>
  );
}
