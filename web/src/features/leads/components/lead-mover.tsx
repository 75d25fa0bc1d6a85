import { LEAD_STATUS_LABELS, LEAD_STATUSES, type Lead, type LeadStatus } from '@coverdesk/contract';
import { Button, Group, Menu, Modal, Stack, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { errorText } from '../../../lib/error-message.js';
import { useDevice } from '../../../lib/viewport.js';
import { useMoveLead } from '../api.js';

type Movable = Pick<Lead, 'id' | 'display_name' | 'status'>;

/**
 * Moving leads between statuses, from the board, a card's menu or the detail page. Moving to lost
 * first asks why; every other move is made at once and confirmed by a toast.
 */
export function useLeadMover(): { move(lead: Movable, status: LeadStatus): void; dialog: ReactNode } {
  const mutation = useMoveLead();
  const [losing, setLosing] = useState<Movable | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const send = (lead: Movable, status: LeadStatus, lostReason?: string) =>
    mutation.mutate(
      { id: lead.id, status, ...(lostReason === undefined ? {} : { lost_reason: lostReason }) },
      {
        onSuccess: () => {
          setLosing(null);
          notifications.show({
            color: 'green',
            message: `${lead.display_name} moved to ${LEAD_STATUS_LABELS[status]}.`,
          });
        },
        onError: (error) => {
          if (status === 'lost') setProblem(errorText(error));
          else notifications.show({ color: 'red', message: errorText(error) });
        },
      },
    );

  const move = (lead: Movable, status: LeadStatus) => {
    if (status === lead.status) return;
    if (status === 'lost') {
      setReason('');
      setProblem(null);
      setLosing(lead);
      return;
    }
    send(lead, status);
  };

  const dialog = (
    <Modal
      opened={losing !== null}
      onClose={() => setLosing(null)}
      title={losing ? `Why was ${losing.display_name} lost?` : ''}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!losing) return;
          if (reason.trim() === '') {
            setProblem('Say why the lead was lost.');
            return;
          }
          send(losing, 'lost', reason.trim());
        }}
      >
        <Stack gap="md">
          <Textarea
            label="Reason"
            description="Price, timing, chose another broker… It helps you see why leads are lost."
            required
            autosize
            minRows={2}
            data-autofocus
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          <FormError message={problem} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setLosing(null)}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={mutation.isPending}>
              Mark as lost
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
  return { move, dialog };
}

/** "Move to…": every other status, for the keyboard and for phones, where there is no dragging. */
export function MoveMenu({ lead, onMove }: { lead: Movable; onMove(status: LeadStatus): void }) {
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          mih={touch}
          leftSection={<IconArrowsExchange size={14} aria-hidden />}
          aria-label={`Move ${lead.display_name} to another status`}
        >
          Move to…
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {LEAD_STATUSES.filter((status) => status !== lead.status).map((status) => (
          <Menu.Item key={status} mih={touch} onClick={() => onMove(status)}>
            {LEAD_STATUS_LABELS[status]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
