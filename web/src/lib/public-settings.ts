import type { PublicSettings } from '@coverdesk/contract';
import { useQuery } from '@tanstack/react-query';
import { secondaryApi } from './api-client.js';
import { queryKeys } from './query-keys.js';

/**
 * Whether sign-ups are open and the demo can be tried, as the platform's admins set them. Until the
 * answer comes (or when it fails) both read as open: the API refuses what is closed either way.
 */
export function usePublicSettings(): PublicSettings {
  const { data } = useQuery({
    queryKey: [...queryKeys.platform, 'public'],
    queryFn: ({ signal }) => secondaryApi.get<PublicSettings>('/platform/settings/', { signal }),
  });
  return data ?? { signups_open: true, demo_available: true };
}
