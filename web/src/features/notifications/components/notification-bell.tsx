import { BELL_ITEMS } from '@coverdesk/contract';
import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Divider,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconBell, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDevice } from '../../../lib/viewport.js';
import { useDismiss, useLatestNotifications, useMarkAllRead, useUnreadCount } from '../api.js';
import { useOpenNotification } from '../use-open-notification.js';
import { useNotificationAccess, useNotificationPolling } from '../use-polling.js';
import { NotificationItem } from './notification-item.js';

/** The badge caps at 99+ (the spec). */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/**
 * The header's bell: the unread count, polled every minute, and on click the ten latest with Mark
 * all read, refresh, dismiss and the way to all of them.
 */
export function NotificationBell() {
  // The bell shows from the first render, without a badge, so the header's icons never shift;
  // the count is fetched once polling starts.
  const eligible = useNotificationAccess();
  const polling = useNotificationPolling();
  const onPhone = useDevice() === 'mobile';
  const [opened, setOpened] = useState(false);
  const unread = useUnreadCount(polling);
  const latest = useLatestNotifications({ page_size: BELL_ITEMS }, eligible && opened);
  const markAll = useMarkAllRead();
  const dismiss = useDismiss();
  const open = useOpenNotification(() => setOpened(false));
  if (!eligible) return null;
  const count = unread.data ?? 0;
  const refresh = () => {
    void unread.refetch();
    void latest.refetch();
  };
  const failed = (message: string) => () => toasts.show({ color: 'red', message });

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width="min(380px, calc(100vw - 16px))"
      shadow="md"
      withinPortal
      trapFocus
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size={44}
          aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
          onClick={() => setOpened((was) => !was)}
          style={{ overflow: 'visible' }}
        >
          <Indicator
            label={badgeText(count)}
            size={18}
            color="red"
            offset={2}
            disabled={count === 0}
            styles={{ indicator: { fontWeight: 700 } }}
          >
            <IconBell size={22} aria-hidden />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="sm" py="xs" wrap="nowrap">
          <Text fw={700}>Notifications</Text>
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-sm"
              variant="subtle"
              disabled={count === 0}
              loading={markAll.isPending}
              onClick={() =>
                markAll.mutate(undefined, { onError: failed('Failed to mark all notifications as read') })
              }
            >
              Mark all read
            </Button>
            <Tooltip label="Refresh">
              <ActionIcon
                variant="subtle"
                color="gray"
                size={onPhone ? 44 : 36}
                aria-label="Refresh notifications"
                onClick={refresh}
              >
                {latest.isFetching ? <Loader size={14} /> : <IconRefresh size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Divider />
        <ScrollArea.Autosize mah="min(460px, 60vh)">
          {latest.isPending ? (
            <Group justify="center" p="md">
              <Loader size="sm" />
            </Group>
          ) : latest.isError ? (
            <Text fz="sm" c="red.8" p="md">
              Failed to fetch notifications
            </Text>
          ) : latest.data.results.length === 0 ? (
            <Text fz="sm" c="dimmed" p="md" ta="center">
              No notifications yet. Reminders of instalments, renewals and meetings will show here.
            </Text>
          ) : (
            <Stack gap={0}>
              {latest.data.results.map((notification) => (
                <Box key={notification.id} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                  <NotificationItem
                    notification={notification}
                    onOpen={(clicked) => void open(clicked)}
                    onDismiss={(dismissed) =>
                      dismiss.mutate(dismissed.id, { onError: failed('Failed to dismiss notification') })
                    }
                  />
                </Box>
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        <Divider />
        <Box p="xs" ta="center">
          <Anchor component={Link} to="/notifications" fz="sm" onClick={() => setOpened(false)}>
            Show all notifications
          </Anchor>
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}
