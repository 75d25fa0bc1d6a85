/** Registering with this address makes a platform admin (the test server's ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'e2e-admin@coverdesk.test';
