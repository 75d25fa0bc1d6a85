// Every table, for drizzle's query builder and for drizzle-kit's migration generator.
export * from '../modules/accounts/tables.js';
export * from '../modules/audit/tables.js';
export * from '../modules/billing/tables.js';
export * from '../modules/calendar/tables.js';
export * from '../modules/claims/tables.js';
export * from '../modules/companies/tables.js';
export * from '../modules/customers/tables.js';
export * from '../modules/demo/tables.js';
export * from '../modules/imports/tables.js';
export * from '../modules/leads/tables.js';
export * from '../modules/mail/tables.js';
export * from '../modules/notifications/tables.js';
export * from '../modules/policies/tables.js';
export * from '../modules/policy-types/tables.js';
export * from '../modules/support/tables.js';
export * from '../modules/tenants/tables.js';
export * from '../modules/throttle/tables.js';
