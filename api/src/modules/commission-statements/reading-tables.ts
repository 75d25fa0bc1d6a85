import { sql } from 'drizzle-orm';
import { foreignKey, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import type { StatementFileLine } from './read-lines.js';
import { commissionStatements } from './tables.js';

/**
 * A statement's lines, as the upload read them from its file, while a job saves and matches them
 * (runner.ts). `lines_done` is how many are saved and matched: the job goes on from there, whoever
 * runs it. Deleted once the statement is in review; a failed reading keeps its `detail` and drops its
 * lines. Tenant-owned.
 */
export const statementReadings = pgTable(
  'statement_readings',
  {
    tenantId: tenantId(),
    statementId: uuid('statement_id').notNull(),
    lines: jsonb('lines').$type<StatementFileLine[]>(),
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
