import { CLAIM_AMOUNT_FIELDS, CLAIM_EVENT_KINDS, CLAIM_STATUSES, CLAIM_TYPES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { date, foreignKey, index, numeric, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { numberKey, trigramIndex } from '../../db/search-columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { policies } from '../policies/tables.js';

const moneyColumn = (name: string) => numeric(name, { precision: 14, scale: 2 });

/**
 * Claims made on the agency's policies; the customer and insurer are the policy's. A policy with
 * claims cannot be deleted: the foreign key is NO ACTION, checked at the end of the statement, so
 * deleting a whole agency (which cascades to both through tenant_id) still works. Tenant-owned.
 */
export const claims = pgTable(
  'claims',
  {
    id: id(),
    tenantId: tenantId(),
    policyId: uuid('policy_id').notNull(),
    claimNumber: text('claim_number').notNull(),
    insurerReference: text('insurer_reference').notNull().default(''),
    incidentDate: date('incident_date', { mode: 'string' }).notNull(),
    /** The agency's day by default, as the transaction's time zone is the agency's. */
    reportedDate: date('reported_date', { mode: 'string' }).notNull().default(sql`current_date`),
    claimType: text('claim_type', { enum: CLAIM_TYPES }).notNull(),
    description: text('description').notNull().default(''),
    location: text('location').notNull().default(''),
    status: text('status', { enum: CLAIM_STATUSES }).notNull().default('open'),
    amountClaimed: moneyColumn('amount_claimed').notNull(),
    amountApproved: moneyColumn('amount_approved'),
    amountPaid: moneyColumn('amount_paid').notNull().default('0'),
    adjusterName: text('adjuster_name').notNull().default(''),
    adjusterPhone: text('adjuster_phone').notNull().default(''),
    adjusterEmail: text('adjuster_email').notNull().default(''),
    /** The agency day it was last closed; cleared when it is reopened. */
    closedOn: date('closed_on', { mode: 'string' }),
    /** The member who handles the claim (`users`, of the same agency); the creator by default. */
    assignedTo: uuid('assigned_to'),
    numberKey: numberKey('claim_number'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('claims_tenant_id_id_key').on(t.tenantId, t.id),
    unique('claims_number_key').on(t.tenantId, t.claimNumber),
    index('claims_tenant_reported_idx').on(t.tenantId, t.reportedDate, t.id),
    index('claims_tenant_incident_idx').on(t.tenantId, t.incidentDate),
    index('claims_tenant_policy_idx').on(t.tenantId, t.policyId),
    index('claims_tenant_assigned_idx').on(t.tenantId, t.assignedTo),
    index('claims_tenant_status_idx').on(t.tenantId, t.status),
    trigramIndex('claims_number_key_idx', t.tenantId, t.numberKey),
    foreignKey({
      name: 'claims_policy_fk',
      columns: [t.tenantId, t.policyId],
      foreignColumns: [policies.tenantId, policies.id],
    }).onDelete('no action'),
  ],
);

/**
 * A claim's timeline: its report, every move between statuses and every edit of its amounts (written
 * by the server with the change) and the notes brokers add. The author's name is kept as it was: users are platform rows the tenant
 * transaction cannot read. Tenant-owned.
 */
export const claimEvents = pgTable(
  'claim_events',
  {
    id: id(),
    tenantId: tenantId(),
    claimId: uuid('claim_id').notNull(),
    kind: text('kind', { enum: CLAIM_EVENT_KINDS }).notNull(),
    fromStatus: text('from_status', { enum: CLAIM_STATUSES }),
    toStatus: text('to_status', { enum: CLAIM_STATUSES }),
    note: text('note').notNull().default(''),
    /** An `amount` entry: which amount an edit changed, from what to what (null: not recorded). */
    amountField: text('amount_field', { enum: CLAIM_AMOUNT_FIELDS }),
    amountFrom: moneyColumn('amount_from'),
    amountTo: moneyColumn('amount_to'),
    authorId: uuid('author_id'),
    authorName: text('author_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('claim_events_claim_idx').on(t.tenantId, t.claimId, t.createdAt),
    foreignKey({
      name: 'claim_events_claim_fk',
      columns: [t.tenantId, t.claimId],
      foreignColumns: [claims.tenantId, claims.id],
    }).onDelete('cascade'),
  ],
);
