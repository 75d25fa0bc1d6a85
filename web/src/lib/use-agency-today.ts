import { todayIn } from './format.js';
import { useSession } from './session-context.js';

/** Today in the signed-in agency's time zone, for date fields that default to today. */
export function useAgencyToday(): string {
  const { state } = useSession();
  return todayIn(state.user?.time_zone ?? 'UTC');
}
