import type { Document, DocumentCategory, DocumentOwner, DocumentType } from '@coverdesk/contract';
import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { countRows, lockUntilCommit } from '../../db/query-helpers.js';
import { claims } from '../claims/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { policies } from '../policies/tables.js';
import { documents } from './tables.js';

/** Where a document hangs: the record it was attached to, and that record's customer. */
export interface Attachment {
  customerId: string | null;
  policyId: string | null;
  claimId: string | null;
  leadId: string | null;
}

const NOTHING: Attachment = { customerId: null, policyId: null, claimId: null, leadId: null };

/**
 * The record a document is attached to, with its customer (a policy's, a claim's policy's, a
 * converted lead's), or undefined when the agency has no such record: another agency's id, or, for
 * an agent who sees only their own book, a record outside it (row-level security hides it).
 */
export async function findAttachment(
  tx: Transaction,
  tenantId: string,
  owner: DocumentOwner,
  id: string,
): Promise<Attachment | undefined> {
  switch (owner) {
    case 'customer_id': {
      const [row] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)));
      return row && { ...NOTHING, customerId: row.id };
    }
    case 'policy_id': {
      const [row] = await tx
        .select({ customerId: policies.customerId })
        .from(policies)
        .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)));
      return row && { ...NOTHING, policyId: id, customerId: row.customerId };
    }
    case 'claim_id': {
      const [row] = await tx
        .select({ customerId: policies.customerId })
        .from(claims)
        .innerJoin(policies, and(eq(policies.tenantId, claims.tenantId), eq(policies.id, claims.policyId)))
        .where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)));
      return row && { ...NOTHING, claimId: id, customerId: row.customerId };
    }
    case 'lead_id': {
      const [row] = await tx
        .select({ customerId: leads.customerId })
        .from(leads)
        .where(and(eq(leads.tenantId, tenantId), eq(leads.id, id)));
      return row && { ...NOTHING, leadId: id, customerId: row.customerId };
    }
  }
}

/**
 * The documents of a record. A customer's include those on their policies and claims (which carry
 * the customer) and on the lead they were converted from, even if it converted after the upload.
 */
function ofOwner(tenantId: string, owner: DocumentOwner, id: string): SQL {
  const column = {
    customer_id: documents.customerId,
    policy_id: documents.policyId,
    claim_id: documents.claimId,
    lead_id: documents.leadId,
  }[owner];
  const own = eq(column, id);
  const where =
    owner === 'customer_id'
      ? or(
          own,
          inArray(
            documents.leadId,
            sql`(select ${leads.id} from ${leads} where ${leads.tenantId} = ${tenantId} and ${leads.customerId} = ${id})`,
          ),
        )
      : own;
  return and(eq(documents.tenantId, tenantId), where) as SQL;
}

type DocumentRow = typeof documents.$inferSelect;

export const toDocument = (row: DocumentRow): Document => ({
  id: row.id,
  file_name: row.fileName,
  content_type: row.contentType,
  size: row.size,
  sha256: row.sha256,
  category: row.category,
  customer_id: row.customerId,
  policy_id: row.policyId,
  claim_id: row.claimId,
  lead_id: row.leadId,
  uploaded_by: row.uploadedBy,
  uploaded_by_name: row.uploadedByName,
  created_at: row.createdAt.toISOString(),
});

/** One page of a record's documents, newest first, and how many it has. */
export async function listDocuments(
  tx: Transaction,
  tenantId: string,
  owner: DocumentOwner,
  id: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ count: number; rows: Document[] }> {
  const where = ofOwner(tenantId, owner, id);
  const [counted] = await tx.select({ count: countRows() }).from(documents).where(where);
  const rows = await tx
    .select()
    .from(documents)
    .where(where)
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(limit)
    .offset(offset);
  return { count: counted?.count ?? 0, rows: rows.map(toDocument) };
}

export async function findDocument(tx: Transaction, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.id, id)));
  return row;
}

export interface NewDocument {
  attachment: Attachment;
  fileName: string;
  contentType: DocumentType;
  size: number;
  sha256: string;
  category: DocumentCategory;
  uploadedBy: { id: string; name: string };
  /** When it was uploaded, if not now: the demo's files are dated within its book's history. */
  createdAt?: Date;
}

export async function insertDocument(tx: Transaction, tenantId: string, values: NewDocument) {
  const [row] = await tx
    .insert(documents)
    .values({
      tenantId,
      ...values.attachment,
      fileName: values.fileName,
      contentType: values.contentType,
      size: values.size,
      sha256: values.sha256,
      category: values.category,
      uploadedBy: values.uploadedBy.id,
      uploadedByName: values.uploadedBy.name,
      ...(values.createdAt ? { createdAt: values.createdAt, updatedAt: values.createdAt } : {}),
    })
    .returning();
  if (!row) throw new Error('The document was not saved.');
  return row;
}

export async function updateDocument(
  tx: Transaction,
  tenantId: string,
  id: string,
  changes: { fileName?: string; category?: DocumentCategory },
) {
  const [row] = await tx
    .update(documents)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(documents.tenantId, tenantId), eq(documents.id, id)))
    .returning();
  return row;
}

/** Deletes the row; its bytes are queued for release by the delete trigger. */
export async function deleteDocument(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.id, id)))
    .returning({ id: documents.id });
  return deleted.length > 0;
}

export const BYTES_PER_MB = 1024 * 1024;

/**
 * Megabytes of documents the agency keeps, as the plan counts them: every document's size, a file
 * kept twice counted twice (what the broker sees listed). One index-only sum.
 */
export async function countStorageMb(tx: Transaction, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ bytes: sql<string>`coalesce(sum(${documents.size}), 0)` })
    .from(documents)
    .where(eq(documents.tenantId, tenantId));
  return Number(row?.bytes ?? 0) / BYTES_PER_MB;
}

/**
 * Holds the agency's file with these bytes until the transaction ends: an upload keeping it and
 * the release runner deleting it take turns, so bytes are never deleted under a new document.
 */
export async function lockFile(tx: Transaction, tenantId: string, sha256: string): Promise<void> {
  await lockUntilCommit(tx, `document:${tenantId}:${sha256}`);
}

/** Whether a document of the agency still has these bytes. */
export async function fileInUse(tx: Transaction, tenantId: string, sha256: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.sha256, sha256)))
    .limit(1);
  return row !== undefined;
}
