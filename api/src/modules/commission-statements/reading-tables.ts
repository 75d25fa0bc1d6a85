import type { DateOrder } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { foreignKey, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, timestamptz } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { commissionStatements } from './tables.js';

/**
 * A statement's file while a job reads and matches it (runner.ts), with the column choices and the
 * date order the upload settled, so the job reads it as the upload checked it. `lines_done` is how
 * many of its lines are saved and matched: the job goes on from there, whoever runs it. Deleted once
 * the statement is in review; a failed reading keeps its `detail` and drops its file. Tenant-owned.
 */
export const statementReadings = pgTable(
  'statement_readings',
  {
    tenantId: tenantId(),
    statementId: uuid('statement_id').notNull(),
    file: bytea('file'),
    columns: jsonb('columns').$type<Record<string, string | null>>().notNull(),
    dateOrder: text('date_order').$type<DateOrder>().notNull(),
    lineTotal: integer('line_total').notNull(),
    linesDone: integer('lines_done').notNull().default(0),
    detail: text('detail').notNull().default(''),
    /** When the job last saved a batch: a reading long left alone was abandoned by a stopped instance. */
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ name: 'statement_readings_pkey', columns: [t.tenantId, t.statementId] }),
    foreignKey({
      name: 'statement_readings_statement_fk',
      columns: [t.tenantId, t.statementId],
      foreignColumns: [commissionStatements.tenantId, commissionStatements.id],
    }).onDelete('cascade'),
  ],
);
