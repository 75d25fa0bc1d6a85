import type {
  CalendarEvent,
  CalendarEventsQuery,
  CalendarFeed,
  Customer,
  Lead,
  LeadAssignee,
  Meeting,
  MeetingBody,
  Paged,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  events: (query: CalendarEventsQuery) => [...queryKeys.calendar, 'events', query] as const,
  meeting: (id: string) => [...queryKeys.calendar, 'meeting', id] as const,
  users: [...queryKeys.calendar, 'users'] as const,
  feed: [...queryKeys.calendar, 'feed'] as const,
  customers: (search: string) => [...queryKeys.customers, 'calendar-choices', search] as const,
  leads: (search: string) => [...queryKeys.leads, 'calendar-choices', search] as const,
};

/** The events of a window of the agency's days; the previous window's stay on screen while it loads. */
export function useCalendarEvents(query: CalendarEventsQuery | null) {
  return useQuery({
    queryKey: keys.events(query ?? { start: '', end: '' }),
    queryFn: async ({ signal }) =>
      (
        await api.get<{ results: CalendarEvent[] }>('/calendar/events/', {
          query: query as Record<string, string>,
          signal,
        })
      ).results,
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

export function useMeeting(id: string | null) {
  return useQuery({
    queryKey: keys.meeting(id ?? ''),
    queryFn: ({ signal }) => api.get<Meeting>(`/calendar/meetings/${id}/`, { signal }),
    enabled: id !== null,
  });
}

/** The agency's users, for the assignee filter. */
export function useCalendarUsers() {
  return useQuery({
    queryKey: keys.users,
    queryFn: async ({ signal }) =>
      (await api.get<{ results: LeadAssignee[] }>('/calendar/users/', { signal })).results,
  });
}

/** Customers and leads matching what the broker types into the meeting form (the first 20 each). */
export function useCustomerChoices(search: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.customers(search),
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Customer>>('/customers/', { query: { search, page_size: 20 }, signal })).results,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useLeadChoices(search: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.leads(search),
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Lead>>('/leads/', { query: { search, page_size: 20 }, signal })).results,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Creates a meeting, or replaces the one with `id` (an edit, a drag or a resize). */
export function useSaveMeeting() {
  const markChanged = useMarkChanged([queryKeys.calendar]);
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: MeetingBody }) =>
      id
        ? api.put<Meeting>(`/calendar/meetings/${id}/`, body)
        : api.post<Meeting>('/calendar/meetings/', body),
    onSuccess: () => markChanged(),
  });
}

/** New times for a meeting dragged or resized; the rest of it is sent as stored. */
export function useMoveMeeting() {
  const markChanged = useMarkChanged([queryKeys.calendar]);
  return useMutation({
    mutationFn: async ({
      id,
      times,
    }: {
      id: string;
      times: Pick<MeetingBody, 'all_day' | 'start' | 'end'>;
    }) => {
      const stored = await api.get<Meeting>(`/calendar/meetings/${id}/`);
      const body: MeetingBody = {
        title: stored.title,
        customer_id: stored.customer_id,
        lead_id: stored.lead_id,
        location: stored.location,
        video_url: stored.video_url,
        notes: stored.notes,
        reminder_minutes: stored.reminder_minutes,
        ...times,
      };
      return api.put<Meeting>(`/calendar/meetings/${id}/`, body);
    },
    onSettled: () => markChanged(),
  });
}

export function useDeleteMeeting() {
  const markChanged = useMarkChanged([queryKeys.calendar]);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/calendar/meetings/${id}/`),
    onSuccess: () => markChanged(),
  });
}

export function useCalendarFeed(enabled: boolean) {
  return useQuery({
    queryKey: keys.feed,
    queryFn: ({ signal }) => api.get<CalendarFeed>('/calendar/feed/', { signal }),
    enabled,
  });
}

/** A new feed address (answered once) or none; the state shown is then this answer's. */
export function useChangeFeed() {
  const markChanged = useMarkChanged([keys.feed]);
  return useMutation({
    mutationFn: (action: 'create' | 'revoke') =>
      action === 'create'
        ? api.post<CalendarFeed>('/calendar/feed/')
        : api.delete<void>('/calendar/feed/').then(() => null),
    onSuccess: () => markChanged(),
  });
}
