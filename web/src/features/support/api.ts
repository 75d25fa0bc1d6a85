import type {
  AdminTicketDetail,
  AdminTicketSummary,
  Paged,
  SupportAdmin,
  TicketBody,
  TicketDetail,
  TicketSummary,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';
import { saveFile } from '../../lib/save-file.js';

// Support has a zero lifetime (query-client.ts): a conversation is always asked afresh.
const keys = {
  list: (query: Record<string, string | number>) => [...queryKeys.support, 'list', query] as const,
  detail: (id: string) => [...queryKeys.support, 'detail', id] as const,
  inbox: (query: Record<string, string | number>) => [...queryKeys.support, 'inbox', query] as const,
  inboxTicket: (id: string) => [...queryKeys.support, 'inbox', 'detail', id] as const,
  admins: [...queryKeys.support, 'admins'] as const,
};

const affected = [queryKeys.support];

/** A message's text fields and its file, as the API reads them: multipart/form-data. */
function formOf(fields: Record<string, string>, attachment: File | null): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (attachment) form.append('attachment', attachment, attachment.name);
  return form;
}

export function useTickets(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<TicketSummary>>('/support/tickets/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useTicket(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<TicketDetail>(`/support/tickets/${id}/`, { signal }),
  });
}

export function useOpenTicket() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ attachment, ...fields }: TicketBody & { attachment: File | null }) =>
      api.post<TicketDetail>('/support/tickets/', formOf(fields, attachment)),
    onSuccess: () => markChanged(),
  });
}

/** A reply in the thread: the broker's on /support/{id}, an admin's in the inbox. */
export function useReply(id: string, as: 'broker' | 'admin') {
  const markChanged = useMarkChanged(affected);
  const path = as === 'admin' ? `/admin/support/tickets/${id}/messages/` : `/support/tickets/${id}/messages/`;
  return useMutation({
    mutationFn: ({ message, attachment }: { message: string; attachment: File | null }) =>
      api.post<TicketDetail>(path, formOf({ message }, attachment)),
    onSuccess: () => markChanged(),
  });
}

/** Fetches an attachment with the signed-in user's token and hands it to the browser's downloads. */
export async function downloadAttachment(path: string, fallbackName: string): Promise<void> {
  const file = await api.download(path);
  saveFile(file.blob, file.filename ?? fallbackName);
}

export function useInbox(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.inbox(query),
    queryFn: ({ signal }) => api.get<Paged<AdminTicketSummary>>('/admin/support/tickets/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInboxTicket(id: string) {
  return useQuery({
    queryKey: keys.inboxTicket(id),
    queryFn: ({ signal }) => api.get<AdminTicketDetail>(`/admin/support/tickets/${id}/`, { signal }),
  });
}

export function useSupportAdmins() {
  return useQuery({
    queryKey: keys.admins,
    queryFn: async ({ signal }) =>
      (await api.get<{ results: SupportAdmin[] }>('/admin/support/admins/', { signal })).results,
  });
}

export function useAssignTicket(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (assignedTo: string | null) =>
      api.post<AdminTicketDetail>(`/admin/support/tickets/${id}/assign/`, { assigned_to: assignedTo }),
    onSuccess: () => markChanged(),
  });
}

export function useSetTicketStatus(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (action: 'resolve' | 'reopen') =>
      api.post<AdminTicketDetail>(`/admin/support/tickets/${id}/${action}/`),
    onSuccess: () => markChanged(),
  });
}
