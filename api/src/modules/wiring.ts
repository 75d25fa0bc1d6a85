/**
 * Where the lower modules' hooks meet the higher modules that fill them, in one list. A module of a
 * lower layer (docs/architecture.md) may not import one above it, so it offers a registry instead:
 * the plan gate counts what the plans limit, the audit trail reads the tables it records, accounts
 * tells who else acts on a new agency or a new password, the book's rows ask who keeps them from
 * being deleted.
 *
 * Imported once, for its effect, by everything that runs the modules: the app (app.ts) and each
 * command (cli/). A registry is then full whichever of the modules' files the entry point loads.
 */
import { whenPasswordReplaced } from './accounts/queries.js';
import { whenAgencyCreated } from './accounts/service.js';
import { registerAuditedTable } from './audit/trail.js';
import { startTrial } from './billing/queries.js';
import { subscriptions } from './billing/tables.js';
import { registerUsageCounter } from './billing/usage.js';
import { turnOffCalendarFeed } from './calendar/feeds.js';
import { claimRaceConflict, countClaimsOnPolicy, refuseWhileClaims } from './claims/on-policy.js';
import { claims } from './claims/tables.js';
import { usesOfCompany } from './companies/queries.js';
import { sellersOf } from './companies/rates.js';
import { companies } from './companies/tables.js';
import { countCustomers, usesOfCustomer } from './customers/queries.js';
import { customers } from './customers/tables.js';
import { countStorageMb } from './documents/queries.js';
import { documents } from './documents/tables.js';
import { countLeads } from './leads/queries.js';
import { leads } from './leads/tables.js';
import { countPoliciesOf, registerClaimsOnPolicy } from './policies/in-use.js';
import { countPolicies } from './policies/queries.js';
import { installments, policies } from './policies/tables.js';
import { usesOfPolicyType } from './policy-types/queries.js';
import { countMembers, registerAssignedColumn, whenMemberLeaves } from './team/queries.js';

// Every new agency starts on the trial.
whenAgencyCreated(startTrial);
// Whoever knew the old password could have made the calendar feed's address.
whenPasswordReplaced(turnOffCalendarFeed);

registerUsageCounter('policies', countPolicies);
registerUsageCounter('customers', countCustomers);
registerUsageCounter('leads', countLeads);
registerUsageCounter('users', countMembers);
registerUsageCounter('storage_mb', countStorageMb);

// A member who leaves hands on the rows assigned to them, and their calendar feed's address goes.
registerAssignedColumn({
  kind: 'customers',
  entity: 'customer',
  table: customers,
  id: customers.id,
  tenantId: customers.tenantId,
  assignee: customers.assignedTo,
  updatedAt: customers.updatedAt,
});
registerAssignedColumn({
  kind: 'policies',
  entity: 'policy',
  table: policies,
  id: policies.id,
  tenantId: policies.tenantId,
  assignee: policies.assignedTo,
  updatedAt: policies.updatedAt,
});
registerAssignedColumn({
  kind: 'claims',
  entity: 'claim',
  table: claims,
  id: claims.id,
  tenantId: claims.tenantId,
  assignee: claims.assignedTo,
  updatedAt: claims.updatedAt,
});
registerAssignedColumn({
  kind: 'leads',
  entity: 'lead',
  table: leads,
  id: leads.id,
  tenantId: leads.tenantId,
  assignee: leads.assignedUserId,
  updatedAt: leads.updatedAt,
});
whenMemberLeaves(turnOffCalendarFeed);

registerAuditedTable('subscription', subscriptions);
registerAuditedTable('company', companies);
registerAuditedTable('customer', customers);
registerAuditedTable('policy', policies);
// A payment is recorded on its instalment.
registerAuditedTable('payment', installments);
registerAuditedTable('lead', leads);
registerAuditedTable('claim', claims);
registerAuditedTable('document', documents);

registerClaimsOnPolicy({
  count: countClaimsOnPolicy,
  refuse: refuseWhileClaims,
  raceConflict: claimRaceConflict,
});

// The book's rows that others point at name what keeps them from being deleted.
usesOfCustomer.add(async (tx, tenantId, id) => ({
  policies: await countPoliciesOf(tx, tenantId, 'customer', id),
}));
usesOfCompany.add(async (tx, tenantId, id) => ({
  policies: await countPoliciesOf(tx, tenantId, 'company', id),
}));
usesOfPolicyType.add(async (tx, tenantId, id) => ({ companies: await sellersOf(tx, tenantId, id) }));
usesOfPolicyType.add(async (tx, tenantId, id) => ({
  policies_count: await countPoliciesOf(tx, tenantId, 'policyType', id),
}));
