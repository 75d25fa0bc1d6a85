import { DEFAULT_PAGE_SIZE, NOTIFICATION_TYPE_LABELS, NOTIFICATION_TYPES } from '@coverdesk/contract';
import { Box, Button, Card, Checkbox, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconBell, IconChecks, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { FilterDate, FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { useListParams } from '../../../lib/list-params.js';
import { useMarkAllRead, useNotificationStats, useNotifications } from '../api.js';
import { NotificationItem } from '../components/notification-item.js';
import { useOpenNotification } from '../use-open-notification.js';

const FILTERS = ['notification_type', 'is_read', 'date_from', 'date_to'] as const;
const TYPE_OPTIONS = NOTIFICATION_TYPES.map((value) => ({ value, label: NOTIFICATION_TYPE_LABELS[value] }));
const READ_OPTIONS = [
  { value: 'false', label: 'Unread' },
  { value: 'true', label: 'Read' },
];

/** /notifications: every notification of the user, filtered by type, read state and date, read in bulk. */
export function Component() {
  const params = useListParams(FILTERS, '-created_at');
  const list = useNotifications(params.query);
  const stats = useNotificationStats();
  const markRead = useMarkAllRead();
  const open = useOpenNotification();
  const [selected, setSelected] = useState<string[]>([]);
  const rows = list.data?.results ?? [];
  const unreadShown = rows.filter((row) => !row.is_read).map((row) => row.id);
  const count = list.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / DEFAULT_PAGE_SIZE));

  const mark = (ids?: string[]) =>
    markRead.mutate(ids, {
      onSuccess: ({ marked }) => {
        setSelected([]);
        toasts.show({ color: 'green', message: `${marked} marked read.` });
      },
      onError: () => toasts.show({ color: 'red', message: 'Failed to mark all notifications as read' }),
    });

  const actions = (
    <Group gap="xs" wrap="nowrap">
      <Button variant="default" size="sm" disabled={selected.length === 0} onClick={() => mark(selected)}>
        Mark read{selected.length > 0 ? ` (${selected.length})` : ''}
      </Button>
      <Button
        size="sm"
        leftSection={<IconChecks size={16} aria-hidden />}
        disabled={(stats.data?.unread ?? 0) === 0}
        loading={markRead.isPending && selected.length === 0}
        onClick={() => mark()}
      >
        Mark all read
      </Button>
    </Group>
  );

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text c="dimmed" fz="sm">
          {stats.data
            ? `${stats.data.total} notifications, ${stats.data.unread} unread`
            : stats.isError
              ? 'The counts could not be loaded.'
              : ' '}
        </Text>
        <Button
          component={Link}
          to="/notifications-settings"
          variant="subtle"
          leftSection={<IconSettings size={16} aria-hidden />}
        >
          Settings
        </Button>
      </Group>
      <ListToolbar
        params={params}
        searchLabel="Search notifications"
        filters={
          <>
            <FilterSelect
              params={params}
              name="notification_type"
              label="Type"
              placeholder="Any type"
              data={TYPE_OPTIONS}
              width={180}
            />
            <FilterSelect
              params={params}
              name="is_read"
              label="Read"
              placeholder="Read or not"
              data={READ_OPTIONS}
              width={140}
            />
            <FilterDate params={params} name="date_from" label="From" />
            <FilterDate params={params} name="date_to" label="To" />
          </>
        }
      />
      {list.isError && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} h={72} radius="md" />
          ))}
        </Stack>
      ) : count === 0 && !params.narrowed ? (
        <EmptyState
          icon={IconBell}
          title="No notifications yet"
          action={
            <Button
              component={Link}
              to="/notifications-settings"
              leftSection={<IconSettings size={16} aria-hidden />}
            >
              Notification Settings
            </Button>
          }
        >
          Coverdesk reminds you here of instalments falling due, policies up for renewal and meetings about to
          start, as your notification settings say.
        </EmptyState>
      ) : count === 0 ? (
        <Card withBorder padding="lg">
          <Stack align="center" gap="xs">
            <Text fw={600}>No notifications match these filters.</Text>
            <Button variant="light" onClick={params.clear}>
              Clear search and filters
            </Button>
          </Stack>
        </Card>
      ) : (
        <Stack gap="sm" aria-busy={list.isFetching}>
          <Group justify="space-between" gap="xs">
            <Checkbox
              label="Select the unread on this page"
              // A fingertip-tall (44 px) label to tap on a phone.
              styles={{ label: { paddingBlock: 12 } }}
              checked={unreadShown.length > 0 && unreadShown.every((id) => selected.includes(id))}
              indeterminate={selected.length > 0 && !unreadShown.every((id) => selected.includes(id))}
              disabled={unreadShown.length === 0}
              onChange={(event) => setSelected(event.currentTarget.checked ? unreadShown : [])}
            />
            {actions}
          </Group>
          <Card withBorder padding={0}>
            {rows.map((notification, index) => (
              <div
                key={notification.id}
                style={index > 0 ? { borderTop: '1px solid var(--mantine-color-gray-2)' } : undefined}
              >
                <NotificationItem
                  notification={notification}
                  onOpen={(clicked) => void open(clicked)}
                  lines={3}
                  priorityWord
                  before={
                    // The label around it makes a fingertip-sized (44 px) target of the small box.
                    <Box
                      component="label"
                      w={44}
                      h={44}
                      style={{
                        display: 'flex',
                        flex: 'none',
                        alignItems: 'center',
                        justifyContent: 'center',
                        cursor: 'pointer',
                      }}
                    >
                      <Checkbox
                        aria-label={`Select ${notification.title}`}
                        disabled={notification.is_read}
                        checked={selected.includes(notification.id)}
                        onChange={(event) => {
                          const { checked } = event.currentTarget;
                          setSelected((was) =>
                            checked ? [...was, notification.id] : was.filter((id) => id !== notification.id),
                          );
                        }}
                      />
                    </Box>
                  }
                />
              </div>
            ))}
          </Card>
          <Text fz="sm" c="dimmed" ta="center">
            {(params.page - 1) * DEFAULT_PAGE_SIZE + 1}–{(params.page - 1) * DEFAULT_PAGE_SIZE + rows.length}{' '}
            of {count}
          </Text>
          {pages > 1 && (
            <Group justify="center">
              <Pagination
                total={pages}
                value={params.page}
                onChange={(page) => params.set({ page })}
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              />
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}
