import {
  BELL_ITEMS,
  type HistoryEntry,
  NOTIFICATION_POLL_MS,
  type Notification,
  type NotificationSetting,
  type NotificationStats,
  type NotificationType,
  type Paged,
  type Policy,
  type SettingPatch,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

// Notifications have a zero lifetime (query-client.ts): the bell polls, every screen asks afresh.
const keys = {
  unreadCount: [...queryKeys.notifications, 'unread-count'] as const,
  latest: (query: Record<string, string | number>) => [...queryKeys.notifications, 'latest', query] as const,
  list: (query: Record<string, string | number>) => [...queryKeys.notifications, 'list', query] as const,
  stats: [...queryKeys.notifications, 'stats'] as const,
  settings: [...queryKeys.notifications, 'settings'] as const,
  history: (query: Record<string, string | number>) =>
    [...queryKeys.notifications, 'history', query] as const,
  historyStats: [...queryKeys.notifications, 'history-stats'] as const,
};

const affected = [queryKeys.notifications];

/**
 * The unread count behind the badge, asked every 60 seconds while `enabled`. A failure reads as
 * none, silently (the spec's rule): the badge is a hint, never an error.
 */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: keys.unreadCount,
    queryFn: async ({ signal }) =>
      (
        await api
          .get<{ unread_count: number }>('/notifications/settings/unread_count/', { signal })
          .catch(() => ({ unread_count: 0 }))
      ).unread_count,
    enabled,
    refetchInterval: enabled ? NOTIFICATION_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** The latest notifications: the bell's ten, or the popup's unread five. */
export function useLatestNotifications(query: { page_size?: number; is_read?: 'false' }, enabled: boolean) {
  const params = { page_size: BELL_ITEMS, ...query };
  return useQuery({
    queryKey: keys.latest(params),
    queryFn: ({ signal }) =>
      api.get<Paged<Notification>>('/notifications/dashboard/', { query: params, signal }),
    enabled,
  });
}

export function useNotifications(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<Notification>>('/notifications/dashboard/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useNotificationStats() {
  return useQuery({
    queryKey: keys.stats,
    queryFn: ({ signal }) => api.get<NotificationStats>('/notifications/dashboard/stats/', { signal }),
  });
}

export function useMarkRead() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.post<Notification>(`/notifications/dashboard/${id}/mark-read/`),
    onSuccess: () => markChanged(),
  });
}

/** Marks the named notifications read, or all of them without ids. */
export function useMarkAllRead() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (ids?: string[]) =>
      api.post<{ marked: number }>('/notifications/dashboard/mark-all-read/', ids ? { ids } : {}),
    onSuccess: () => markChanged(),
  });
}

export function useDismiss() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.post<null>(`/notifications/dashboard/${id}/dismiss/`),
    onSuccess: () => markChanged(),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: keys.settings,
    queryFn: async ({ signal }) =>
      (await api.get<{ results: NotificationSetting[] }>('/notifications/settings/', { signal })).results,
  });
}

export function useSaveSetting(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (patch: SettingPatch) =>
      api.patch<NotificationSetting>(`/notifications/settings/${id}/`, patch),
    onSuccess: () => markChanged(),
  });
}

export function useSendTest() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (type: NotificationType) =>
      api.post<{ detail: string; results: HistoryEntry[] }>('/notifications/settings/test_notification/', {
        notification_type: type,
      }),
    onSuccess: () => markChanged(),
  });
}

export function useHistory(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.history(query),
    queryFn: ({ signal }) => api.get<Paged<HistoryEntry>>('/notifications/history/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useHistoryStats() {
  return useQuery({
    queryKey: keys.historyStats,
    queryFn: ({ signal }) =>
      api.get<{ total: number; by_status: Record<HistoryEntry['status'], number> }>(
        '/notifications/history/stats/',
        {
          signal,
        },
      ),
  });
}

/** Values a policy-number field may hold that name no policy. */
const NOT_A_NUMBER = new Set(['no', 'number', 'none']);

/**
 * The policy a notification is about, as the spec finds it: by its number through the policy
 * search, or else by its customer's full name, case-insensitively. Undefined when neither matches.
 */
export async function findRelatedPolicy(notification: Notification): Promise<string | undefined> {
  const number = notification.related_policy_number?.trim() ?? '';
  if (number && !NOT_A_NUMBER.has(number.toLowerCase())) {
    const { results } = await api.get<Paged<Policy>>('/policies/', {
      query: { search: number, page_size: 20 },
    });
    const match = results.find((policy) => policy.policy_number === number);
    if (match) return match.id;
  }
  const name = notification.related_customer_name?.trim().toLowerCase() ?? '';
  if (name) {
    const { results } = await api.get<Paged<Policy>>('/policies/', {
      query: { search: name, page_size: 20 },
    });
    const match = results.find(
      (policy) => `${policy.customer.first_name} ${policy.customer.last_name}`.trim().toLowerCase() === name,
    );
    if (match) return match.id;
  }
  return undefined;
}
