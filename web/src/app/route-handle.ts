import type { TeamAction } from '@coverdesk/contract';
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

/**
 * What the page being opened does, as far as roles are concerned: the deepest route naming an
 * `action` (a form's route, or its screen's); undefined for a page that only reads.
 */
export function useRequiredAction(): TeamAction | undefined {
  const handles = useMatches().map((match) => match.handle as RouteHandle | undefined);
  return handles.findLast((handle) => handle?.action)?.action;
}
