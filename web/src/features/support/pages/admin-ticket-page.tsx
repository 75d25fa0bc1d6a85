import { TICKET_CATEGORY_LABELS } from '@coverdesk/contract';
import { Anchor, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconRotate } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { BackLink } from '../../../components/back-link.js';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DetailField } from '../../../components/detail-field.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, formatTime } from '../../../lib/format.js';
import { useAssignTicket, useInboxTicket, useReply, useSetTicketStatus, useSupportAdmins } from '../api.js';
import { ReplyForm } from '../components/reply-form.js';
import { TicketStatusBadge } from '../components/ticket-status-badge.js';
import { TicketThread } from '../components/ticket-thread.js';

const NOBODY = 'nobody';

/** /admin/support/{id}: a ticket's thread, the answer box, who handles it, and resolving it. */
export function Component() {
  const { id = '' } = useParams();
  const ticket = useInboxTicket(id);
  const admins = useSupportAdmins();
  const assign = useAssignTicket(id);
  const setStatus = useSetTicketStatus(id);
  const reply = useReply(id, 'admin');
  const [confirming, setConfirming] = useState(false);

  if (ticket.isPending) return <DetailSkeleton />;
  if (ticket.isError)
    return (
      <ErrorState
        error={ticket.error}
        onRetry={() => void ticket.refetch()}
        back={{ to: '/admin/support', label: 'Back to the inbox' }}
      />
    );
  const { data } = ticket;

  const changeAssignee = (value: string | null) =>
    assign.mutate(value === NOBODY || value === null ? null : value, {
      onSuccess: (saved) =>
        notifications.show({
          color: 'green',
          message: saved.assigned_to_name
            ? `Assigned to ${saved.assigned_to_name}.`
            : 'Nobody is assigned now.',
        }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Could not assign the ticket', message: errorText(error) }),
    });
  const reopen = () =>
    setStatus.mutate('reopen', {
      onSuccess: () => notifications.show({ color: 'green', message: 'Ticket open again.' }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Could not reopen the ticket', message: errorText(error) }),
    });
  const resolve = () =>
    setStatus.mutate('resolve', {
      onSuccess: () => {
        setConfirming(false);
        notifications.show({ color: 'green', message: 'Ticket resolved.' });
      },
    });

  return (
    <Stack maw={1000}>
      <BackLink to="/admin/support">Support inbox</BackLink>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="xs">
            <Stack gap={4}>
              <Title order={2} fz="h4" style={{ overflowWrap: 'anywhere' }}>
                {data.subject}
              </Title>
              <Group gap="xs">
                <TicketStatusBadge status={data.status} admin />
                <Text fz="sm" c="gray.7">
                  {TICKET_CATEGORY_LABELS[data.category]} · opened {formatDate(data.created_at)}{' '}
                  {formatTime(data.created_at)}
                </Text>
              </Group>
            </Stack>
            {data.status === 'resolved' ? (
              <Button
                variant="default"
                leftSection={<IconRotate size={16} aria-hidden />}
                loading={setStatus.isPending}
                onClick={reopen}
                mih={44}
              >
                Reopen
              </Button>
            ) : (
              <Button
                leftSection={<IconCircleCheck size={16} aria-hidden />}
                onClick={() => setConfirming(true)}
                mih={44}
              >
                Resolve
              </Button>
            )}
          </Group>
          <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="md" m={0}>
            <DetailField label="From">
              {data.from_contact_form ? (
                <Group gap={6}>
                  <span>{data.company ?? data.opened_by_name}</span>
                  <Badge size="xs" color="gray" variant="outline" radius="sm">
                    Contact form
                  </Badge>
                </Group>
              ) : (
                <Anchor component={Link} to={`/admin/tenants/${data.tenant_id}`}>
                  {data.agency_name}
                </Anchor>
              )}
            </DetailField>
            <DetailField label="Requester">
              {data.opened_by_name}
              <Text fz="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                {data.requester_email}
              </Text>
            </DetailField>
          </SimpleGrid>
          <Select
            label="Assigned to"
            data={[
              { value: NOBODY, label: 'Nobody' },
              ...(admins.data ?? []).map((admin) => ({ value: admin.id, label: admin.name })),
            ]}
            value={data.assigned_to ?? NOBODY}
            onChange={changeAssignee}
            disabled={assign.isPending || admins.isPending}
            error={admins.isError ? 'The admins could not be loaded.' : undefined}
            allowDeselect={false}
            w={{ base: '100%', sm: 320 }}
          />
        </Stack>
      </Card>
      <TicketThread
        messages={data.messages}
        attachmentPath={(file) => `/admin/support/tickets/${data.id}/attachments/${file.id}/`}
      />
      <ReplyForm
        send={(values) => reply.mutateAsync(values)}
        description={
          data.from_contact_form
            ? `We email your answer to ${data.requester_email}. The ticket is then marked Pending until they reply.`
            : `We email ${data.opened_by_name} your answer with a link to the ticket. The ticket is then marked Pending until the agency replies.`
        }
        sentMessage={`Reply sent. We emailed ${data.opened_by_name || data.requester_email}.`}
      />
      <ConfirmDialog
        opened={confirming}
        title="Resolve this ticket?"
        confirmLabel="Resolve"
        busy={setStatus.isPending}
        error={setStatus.isError ? errorText(setStatus.error) : null}
        onConfirm={resolve}
        onClose={() => {
          setConfirming(false);
          setStatus.reset();
        }}
      >
        “{data.subject}” moves to Resolved. {data.from_contact_form ? 'The sender' : 'The agency'} is not
        emailed; a reply from them opens it again.
      </ConfirmDialog>
    </Stack>
  );
}
