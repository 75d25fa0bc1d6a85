import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { RevokedSessions } from './modules/accounts/revoked-sessions.js';
import type { Mailer } from './modules/mail/mailer.js';

/** What route modules need from the running app, passed in explicitly. */
export interface AppContext {
  config: Config;
  db: Database;
  mailer: Mailer;
  revokedSessions: RevokedSessions;
}
