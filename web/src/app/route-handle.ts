import type { ModuleName } from '@coverdesk/contract';
import { useMatches } from 'react-router';

/** What a route tells the shell about its screen. */
export interface RouteHandle {
  title?: string;
  subtitle?: string;
  /** The plan feature that opens this screen. */
  module?: ModuleName;
  /** Reachable without an active subscription or trial (billing, profile, support). */
  allowWithoutSubscription?: boolean;
}

/** The handle of the deepest matched route that has one. */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle as RouteHandle | undefined;
    if (handle?.title || handle?.module || handle?.allowWithoutSubscription) return handle;
  }
  return {};
}
