/** Registering with this address makes a platform admin (the test server's ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'e2e-admin@coverdesk.test';

/** Host names the browser resolves to the test server: the admin portal's and the broker app's. */
export const ADMIN_HOST = 'admin.coverdesk.test';
export const APP_HOST = 'coverdesk.test';
