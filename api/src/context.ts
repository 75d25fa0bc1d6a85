import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { RevokedSessions } from './modules/accounts/revoked-sessions.js';
import type { AppMailer } from './modules/mail/mailer.js';
import type { PlatformSettings } from './modules/platform-settings/store.js';

/** What route modules need from the running app, passed in explicitly. */
export interface AppContext {
  config: Config;
  db: Database;
  mailer: AppMailer;
  revokedSessions: RevokedSessions;
  /** Sign-ups, the demo, trial days, the mail server and Paddle, as the admins set them. */
  settings: PlatformSettings;
}
