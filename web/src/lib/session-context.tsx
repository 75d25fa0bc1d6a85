import { createContext, type ReactNode, useContext } from 'react';
import { type Session, type SessionState, useSessionState } from './session.js';

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The session's actions and its current state. */
export function useSession(): { session: Session; state: SessionState } {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return { session, state: useSessionState(session) };
}
