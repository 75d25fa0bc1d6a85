import { DOCUMENT_CATEGORIES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { claims } from '../claims/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { policies } from '../policies/tables.js';

/**
 * A file kept on a customer, policy, claim or lead. The bytes are in the file store (storage.ts),
 * under the agency and their SHA-256, so the same file kept twice is stored once; the row says what
 * it is and where it hangs. `customer_id` is the record's customer (a policy's, a claim's policy's,
 * a converted lead's), so a customer's documents include those on their policies and claims.
 * Each link cascades: a record deleted takes its documents, and the trigger of the custom
 * migration `documents-isolation` queues their bytes for deletion. Tenant-owned.
 */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    tenantId: tenantId(),
    customerId: uuid('customer_id'),
    policyId: uuid('policy_id'),
    claimId: uuid('claim_id'),
    leadId: uuid('lead_id'),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    category: text('category', { enum: DOCUMENT_CATEGORIES }).notNull().default('other'),
    /** The member who uploaded it (`users`, a platform row: no key), and their name as it was. */
    uploadedBy: uuid('uploaded_by'),
    uploadedByName: text('uploaded_by_name').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('documents_tenant_customer_idx').on(t.tenantId, t.customerId, t.createdAt),
    index('documents_tenant_policy_idx').on(t.tenantId, t.policyId, t.createdAt),
    index('documents_tenant_claim_idx').on(t.tenantId, t.claimId, t.createdAt),
    index('documents_tenant_lead_idx').on(t.tenantId, t.leadId, t.createdAt),
    index('documents_tenant_sha256_idx').on(t.tenantId, t.sha256),
    check(
      'documents_attached_check',
      sql`num_nonnulls(${t.customerId}, ${t.policyId}, ${t.claimId}, ${t.leadId}) > 0`,
    ),
    foreignKey({
      name: 'documents_customer_fk',
      columns: [t.tenantId, t.customerId],
      foreignColumns: [customers.tenantId, customers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'documents_policy_fk',
      columns: [t.tenantId, t.policyId],
      foreignColumns: [policies.tenantId, policies.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'documents_claim_fk',
      columns: [t.tenantId, t.claimId],
      foreignColumns: [claims.tenantId, claims.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'documents_lead_fk',
      columns: [t.tenantId, t.leadId],
      foreignColumns: [leads.tenantId, leads.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Bytes that may no longer be needed: a deleted document's agency and hash, written by the delete
 * trigger (whichever statement deleted the row: the document's own delete, its record's, or the
 * agency's). The release runner (releases.ts) deletes the bytes once no document of the agency
 * has the hash, then the row. No key to the agency, which may be the thing deleted; not
 * tenant-owned: the app's own connection reads it outside any agency.
 */
export const documentFileReleases = pgTable(
  'document_file_releases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    sha256: text('sha256').notNull(),
    releasedAt: timestamptz('released_at').notNull().defaultNow(),
  },
  (t) => [index('document_file_releases_released_idx').on(t.releasedAt)],
);
