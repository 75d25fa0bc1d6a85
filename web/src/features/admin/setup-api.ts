import type {
  EmailSetup,
  EmailSetupBody,
  EmailTestBody,
  EmailTestResult,
  PaddleCheckResult,
  PaddleSetup,
  PaddleSetupBody,
  PlatformSettings,
} from '@coverdesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

// The platform resource has a zero lifetime (query-client.ts): each screen asks afresh.
const keys = {
  settings: [...queryKeys.platform, 'settings'] as const,
  email: [...queryKeys.platform, 'email'] as const,
  paddle: [...queryKeys.platform, 'paddle'] as const,
};

/** A saved setting replaces what the screen holds, and the public settings are asked again. */
function useSave<Body, Saved>(key: readonly unknown[], path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => api.put<Saved>(path, body),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      void client.invalidateQueries({ queryKey: [...queryKeys.platform, 'public'] });
    },
  });
}

export const usePlatformSettings = () =>
  useQuery({
    queryKey: keys.settings,
    queryFn: ({ signal }) => api.get<PlatformSettings>('/admin/settings/', { signal }),
  });

export const useSavePlatformSettings = () =>
  useSave<PlatformSettings, PlatformSettings>(keys.settings, '/admin/settings/');

export const useEmailSetup = () =>
  useQuery({
    queryKey: keys.email,
    queryFn: ({ signal }) => api.get<EmailSetup>('/admin/email-setup/', { signal }),
  });

export const useSaveEmailSetup = () => useSave<EmailSetupBody, EmailSetup>(keys.email, '/admin/email-setup/');

/** Back to SMTP_URL (or no email at all): the saved mail server is deleted. */
export function useForgetEmailSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<EmailSetup>('/admin/email-setup/'),
    onSuccess: (setup) => client.setQueryData(keys.email, setup),
  });
}

export const useSendTestEmail = () =>
  useMutation({
    mutationFn: (body: EmailTestBody) => api.post<EmailTestResult>('/admin/email-setup/test/', body),
  });

export const usePaddleSetup = () =>
  useQuery({
    queryKey: keys.paddle,
    queryFn: ({ signal }) => api.get<PaddleSetup>('/admin/paddle-setup/', { signal }),
  });

export const useSavePaddleSetup = () =>
  useSave<PaddleSetupBody, PaddleSetup>(keys.paddle, '/admin/paddle-setup/');

export const useCheckPaddle = () =>
  useMutation({
    mutationFn: () => api.post<PaddleCheckResult>('/admin/paddle-setup/check/'),
  });
