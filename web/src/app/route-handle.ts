import { useMatches } from 'react-router';
import type { Screen } from './screens.js';

/** What a route tells the shell about its screen: its entry in screens.ts, or the admin portal's title. */
export type RouteHandle = Partial<Screen>;

/** The handle of the deepest matched route that has one. */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle as RouteHandle | undefined;
    if (handle?.title) return handle;
  }
  return {};
}
