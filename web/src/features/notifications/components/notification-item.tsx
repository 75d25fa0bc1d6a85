import type { Notification } from '@coverdesk/contract';
import { ActionIcon, Box, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useDevice } from '../../../lib/viewport.js';
import { PRIORITY_COLORS, PRIORITY_LABELS, relativeTime } from '../wording.js';

/** The priority as a coloured dot, named for screen readers and on hover. */
export function PriorityDot({
  priority,
  withWord = false,
}: {
  priority: Notification['priority'];
  /** Also writes the word for the urgent ones, so the colour is not all that tells them apart. */
  withWord?: boolean;
}) {
  const dot = (
    <Tooltip label={`${PRIORITY_LABELS[priority]} priority`} withinPortal>
      <Box
        component="span"
        role="img"
        aria-label={`${PRIORITY_LABELS[priority]} priority`}
        w={10}
        h={10}
        mt={6}
        bg={PRIORITY_COLORS[priority]}
        style={{ borderRadius: '50%', flex: 'none', display: 'inline-block' }}
      />
    </Tooltip>
  );
  if (!withWord || (priority !== 'high' && priority !== 'critical')) return dot;
  return (
    <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
      {dot}
      <Text component="span" fz="xs" fw={700} c={PRIORITY_COLORS[priority]} mt={2} aria-hidden>
        {PRIORITY_LABELS[priority]}
      </Text>
    </Group>
  );
}

/**
 * One notification: its dot, title (bold while unread), message and age. Clicking it opens what it
 * is about; `aside` holds its own buttons (dismiss, a checkbox), outside the click target.
 */
export function NotificationItem(props: {
  notification: Notification;
  onOpen(notification: Notification): void;
  onDismiss?(notification: Notification): void;
  lines?: number;
  before?: ReactNode;
  /** Writes "High" or "Critical" beside the dot (the full list has the room). */
  priorityWord?: boolean;
}) {
  const { notification } = props;
  const onPhone = useDevice() === 'mobile';
  const unread = !notification.is_read;
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap" py={6} px="xs" bg={unread ? 'indigo.0' : undefined}>
      {props.before}
      <UnstyledButton
        onClick={() => props.onOpen(notification)}
        style={{ flex: 1, minWidth: 0 }}
        mih={44}
        aria-label={`${unread ? 'Unread: ' : ''}${notification.title}`}
      >
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <PriorityDot priority={notification.priority} withWord={props.priorityWord} />
          <Stack gap={2} miw={0} flex={1}>
            <Text fz="sm" fw={unread ? 700 : 500} lineClamp={2}>
              {notification.title}
            </Text>
            <Text fz="xs" c="dimmed" lineClamp={props.lines ?? 2}>
              {notification.message}
            </Text>
            <Text fz="xs" c="dimmed">
              {relativeTime(notification.created_at)}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
      {props.onDismiss && (
        <ActionIcon
          variant="subtle"
          color="gray"
          size={onPhone ? 44 : 36}
          aria-label={`Dismiss ${notification.title}`}
          onClick={() => props.onDismiss?.(notification)}
        >
          <IconX size={16} aria-hidden />
        </ActionIcon>
      )}
    </Group>
  );
}
