import { useEffect, useState } from 'react';
import { useAccess } from '../../app/access.js';
import { useSession } from '../../lib/session-context.js';

/** Polling waits this long after sign-in: admins 1 s, brokers 2 s (the spec's timings). */
const START_AFTER_MS = { admin: 1000, broker: 2000 };

/** Whether the signed-in user has notifications: an admin, or a plan that has them. */
export function useNotificationAccess(): boolean {
  const { state } = useSession();
  const access = useAccess();
  return state.user !== null && (state.user.is_admin || access.canOpen('module_notifications'));
}

/**
 * Whether the bell polls: for admins, and for users whose plan has notifications, from a moment
 * after sign-in until sign-out (the user is gone, so it stops).
 */
export function useNotificationPolling(): boolean {
  const { state } = useSession();
  const isAdmin = state.user?.is_admin ?? false;
  const eligible = useNotificationAccess();
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (!eligible) {
      setStarted(false);
      return;
    }
    const timer = setTimeout(() => setStarted(true), isAdmin ? START_AFTER_MS.admin : START_AFTER_MS.broker);
    return () => clearTimeout(timer);
  }, [eligible, isAdmin]);
  return eligible && started;
}
