import { roleCan, type TeamAction } from '@coverdesk/contract';
import { useSession } from './session-context.js';

/**
 * Whether the signed-in member's role allows an action (contract/src/roles.ts holds the one table,
 * which the API enforces too). Screens hide or disable what it refuses; no screen compares roles.
 */
export function useCan(action: TeamAction): boolean {
  const { state } = useSession();
  return state.user ? roleCan(state.user.role, action) : false;
}
