import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import type { RouteTimings } from './http/route-timings.js';
import type { RevokedSessions } from './modules/accounts/revoked-sessions.js';
import type { DocumentFiles } from './modules/documents/routes.js';
import type { AppMailer } from './modules/mail/mailer.js';
import type { PlatformSettings } from './modules/platform-settings/store.js';

/** What route modules need from the running app, passed in explicitly. */
export interface AppContext {
  config: Config;
  db: Database;
  /** Which database the app runs on: a PostgreSQL server or embedded PGlite. */
  databaseEngine: DatabaseHandle['engine'];
  mailer: AppMailer;
  /** Where documents' bytes are kept, and the runner that deletes those no document has. */
  documentFiles: DocumentFiles;
  revokedSessions: RevokedSessions;
  /** How long this instance's requests took, per route, since it started. */
  routeTimings: RouteTimings;
  /** Sign-ups, the demo, trial days, the mail server and Paddle, as the admins set them. */
  settings: PlatformSettings;
}
