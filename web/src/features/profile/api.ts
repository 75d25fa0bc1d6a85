import type { ProfileUpdateBody, UserProfile } from '@coverdesk/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

export function useUpdateProfile() {
  // The agency's time zone decides which policies are active and which instalments overdue.
  const markChanged = useMarkChanged([queryKeys.policies, queryKeys.payments]);
  return useMutation({
    mutationFn: (body: ProfileUpdateBody) =>
      api.patch<{ user: UserProfile; message: string }>('/user/profile/', body),
    onSuccess: (_saved, body) => (body.time_zone === undefined ? undefined : markChanged()),
  });
}
