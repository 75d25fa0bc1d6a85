import type { UserProfile } from '@coverdesk/contract';
import { useEffect, useState } from 'react';

/** Where the app keeps the signed-in user's access token. */
export const ACCESS_TOKEN_KEY = 'coverdesk.access';

type Session = { state: 'loading' } | { state: 'signed-out' } | { state: 'signed-in'; user: UserProfile };

async function loadSession(): Promise<Session> {
  const token = localStorage.getItem(ACCESS_TOKEN_KEY);
  if (!token) return { state: 'signed-out' };
  const response = await fetch('/api/user/profile/', { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) return { state: 'signed-out' };
  return { state: 'signed-in', user: (await response.json()) as UserProfile };
}

/** A first page while the app shell is being built: who is signed in, or what Coverdesk is. */
export function App() {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  useEffect(() => {
    loadSession()
      .then(setSession)
      .catch(() => setSession({ state: 'signed-out' }));
  }, []);

  return (
    <main className="page">
      <h1>Coverdesk</h1>
      {session.state === 'loading' && <p aria-busy="true">Loading…</p>}
      {session.state === 'signed-out' && (
        <p>
          Customers, policies, instalments, commissions and renewals for insurance agents, brokers and
          agencies.
        </p>
      )}
      {session.state === 'signed-in' && (
        <section aria-label="Your account">
          <p>
            Welcome, {session.user.first_name} {session.user.last_name}.
          </p>
          <p>{session.user.company_name}</p>
        </section>
      )}
    </main>
  );
}
