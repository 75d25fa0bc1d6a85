import type { ProfileUpdateBody, UserProfile } from '@coverdesk/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: ProfileUpdateBody) =>
      api.patch<{ user: UserProfile; message: string }>('/user/profile/', body),
  });
}
