import { STATEMENT_LINE_RESOLUTIONS, STATEMENT_MATCH_METHODS, STATEMENT_STATUSES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from '../../db/columns.js';
import { nameKey, numberKey } from '../../db/search-columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { companies } from '../companies/tables.js';

const moneyColumn = (name: string) => numeric(name, { precision: 14, scale: 2 });

/**
 * An insurer's commission statement as the agency uploaded it: the file's lines are kept in
 * `statement_lines`, the file itself is not (its SHA-256 refuses the same file twice for the
 * insurer). `review` until accepted, which records a receipt per matched line (`insurer_receipts`).
 * Tenant-owned.
 */
export const commissionStatements = pgTable(
  'commission_statements',
  {
    id: id(),
    tenantId: tenantId(),
    companyId: uuid('company_id').notNull(),
    statementDate: date('statement_date', { mode: 'string' }).notNull(),
    /** What the insurer says the statement pays in all, as the broker typed it. */
    totalAmount: moneyColumn('total_amount').notNull(),
    fileName: text('file_name').notNull(),
    fileSha256: text('file_sha256').notNull(),
    status: text('status', { enum: STATEMENT_STATUSES }).notNull().default('review'),
    /** The member who uploaded it (`users` of the agency). */
    uploadedBy: uuid('uploaded_by'),
    acceptedAt: timestamptz('accepted_at'),
    acceptedBy: uuid('accepted_by'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('commission_statements_tenant_id_id_key').on(t.tenantId, t.id),
    unique('commission_statements_file_key').on(t.tenantId, t.companyId, t.fileSha256),
    index('commission_statements_company_idx').on(t.tenantId, t.companyId, t.statementDate),
    foreignKey({
      name: 'commission_statements_company_fk',
      columns: [t.tenantId, t.companyId],
      foreignColumns: [companies.tenantId, companies.id],
    }).onDelete('cascade'),
  ],
);

/**
 * A statement's lines as read from its file, with the policy each was matched to. What the insurer
 * owed on that policy, and so each line's outcome, is worked out when the statement is read.
 * Tenant-owned.
 */
export const statementLines = pgTable(
  'statement_lines',
  {
    tenantId: tenantId(),
    statementId: uuid('statement_id').notNull(),
    /** The line's row in the file (the header is row 1). */
    lineNumber: integer('line_number').notNull(),
    rawPolicyNumber: text('raw_policy_number').notNull().default(''),
    insuredName: text('insured_name').notNull().default(''),
    // Kept as policies and customers keep theirs, so a line finds its policy through their indexes
    // under row-level security (see db/search-columns.ts).
    numberKey: numberKey('raw_policy_number'),
    nameKey: nameKey(sql`insured_name`),
    premium: moneyColumn('premium'),
    paidCommission: moneyColumn('paid_commission').notNull(),
    transactionDate: date('transaction_date', { mode: 'string' }),
    transactionType: text('transaction_type').notNull().default(''),
    policyId: uuid('policy_id'),
    matchMethod: text('match_method', { enum: STATEMENT_MATCH_METHODS }),
    /** 0 to 1: the name's trigram similarity for a fuzzy match, 1 otherwise. */
    confidence: numeric('confidence', { precision: 3, scale: 2 }),
    /** A fuzzy match waits for the broker; exact and manual ones are confirmed. */
    confirmed: boolean('confirmed').notNull().default(false),
    note: text('note').notNull().default(''),
    /** How the broker resolved a line with no policy, which accepting waits for (migration 0075). */
    resolution: text('resolution', { enum: STATEMENT_LINE_RESOLUTIONS }),
    resolutionReason: text('resolution_reason').notNull().default(''),
  },
  (t) => [
    // statement_lines_resolution_check (0075): a resolved line has no policy; a write-off, a reason.
    primaryKey({ name: 'statement_lines_pkey', columns: [t.tenantId, t.statementId, t.lineNumber] }),
    index('statement_lines_policy_idx').on(t.tenantId, t.policyId),
    foreignKey({
      name: 'statement_lines_statement_fk',
      columns: [t.tenantId, t.statementId],
      foreignColumns: [commissionStatements.tenantId, commissionStatements.id],
    }).onDelete('cascade'),
    // statement_lines_policy_fk (migration commission-statements): a deleted policy leaves its lines
    // unmatched, ON DELETE SET NULL (policy_id), which drizzle cannot declare.
  ],
);

/**
 * The field each header of an insurer's statements fills, as the broker last chose it, by the
 * header as `normalizedHeader` writes it: the next statement of that insurer maps without asking.
 * Tenant-owned.
 */
export const statementMappings = pgTable(
  'statement_mappings',
  {
    tenantId: tenantId(),
    companyId: uuid('company_id').notNull(),
    columns: jsonb('columns').$type<Record<string, string | null>>().notNull(),
  },
  (t) => [
    primaryKey({ name: 'statement_mappings_pkey', columns: [t.tenantId, t.companyId] }),
    foreignKey({
      name: 'statement_mappings_company_fk',
      columns: [t.tenantId, t.companyId],
      foreignColumns: [companies.tenantId, companies.id],
    }).onDelete('cascade'),
  ],
);
