import {
  DATE_ORDERS,
  type DateHint,
  IMPORT_DUPLICATE_CHOICES,
  IMPORT_KINDS,
  IMPORT_PAST_INSTALMENT_CHOICES,
  IMPORT_STATUSES,
} from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';

/** A failed row of an import: its line in the file and what was wrong with it. */
export interface ImportFailure {
  row: number;
  problems: string;
}

/**
 * A file a broker uploaded to import, kept in the database so that any instance, or this one after a
 * restart, can run it. One per agency, kind and file content: uploading the same file again answers
 * the same import, and an import runs to `done` at most once. Tenant-owned.
 */
export const imports = pgTable(
  'imports',
  {
    id: id(),
    tenantId: tenantId(),
    kind: text('kind', { enum: IMPORT_KINDS }).notNull(),
    fileName: text('file_name').notNull(),
    /** SHA-256 of the file's bytes, hex. */
    fileHash: text('file_hash').notNull(),
    file: bytea('file').notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('draft'),
    headers: jsonb('headers').$type<string[]>().notNull(),
    columns: jsonb('columns').$type<(string | null)[]>().notNull(),
    duplicates: text('duplicates', { enum: IMPORT_DUPLICATE_CHOICES }).notNull().default('skip'),
    allOrNothing: boolean('all_or_nothing').notNull().default(true),
    /** Policies: what becomes of instalments due before the import's day when a row says nothing of them. */
    pastInstalments: text('past_instalments', { enum: IMPORT_PAST_INSTALMENT_CHOICES })
      .notNull()
      .default('paid'),
    /** Policies: with past instalments left unpaid, those of policies already ended too. */
    expiredUnpaid: boolean('expired_unpaid').notNull().default(false),
    /** How dates written "05/01/2026" are read, as the broker chose; null while they have not. */
    dateOrder: text('date_order', { enum: DATE_ORDERS }),
    /** Per column, what its numeric dates say of their order (read once, when the file came). */
    dateHints: jsonb('date_hints').$type<(DateHint | null)[]>().notNull().default(sql`'[]'::jsonb`),
    totalRows: integer('total_rows').notNull(),
    /** The first rows, for the broker to recognise the columns while mapping them. */
    sample: jsonb('sample').$type<string[][]>().notNull().default(sql`'[]'::jsonb`),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    failures: jsonb('failures').$type<ImportFailure[]>().notNull().default(sql`'[]'::jsonb`),
    detail: text('detail').notNull().default(''),
    /** Who started it: the actor of the records it writes (a lead's first status change). */
    startedBy: text('started_by'),
    finishedAt: timestamptz('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('imports_tenant_kind_hash_key').on(t.tenantId, t.kind, t.fileHash)],
);

/** The field the agency chose for each header it has imported, per kind, to guess the next file. */
export const importMappings = pgTable(
  'import_mappings',
  {
    tenantId: tenantId(),
    kind: text('kind', { enum: IMPORT_KINDS }).notNull(),
    /** Normalised header -> field key, or null for a column the agency leaves out. */
    mapping: jsonb('mapping').$type<Record<string, string | null>>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] })],
);
