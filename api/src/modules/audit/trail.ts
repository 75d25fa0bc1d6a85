import type { AuditedEntity } from '@coverdesk/contract';
import { type AnyColumn, and, eq, getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from '../../db/client.js';
import { signedInUser } from '../../http/authenticate.js';
import { agencyUsers } from '../tenants/tables.js';
import { auditOrigin, changedFields, recordAudit } from './record.js';
import type { FieldChanges } from './tables.js';

/** A table whose rows the log records: each row is the agency's (`tenant_id`) and has an `id`. */
export type AuditedTable = PgTable & { id: AnyColumn; tenantId: AnyColumn };

/** The table each audited entity lives in, told by the module that owns it. */
const TABLES: Partial<Record<AuditedEntity, AuditedTable>> = {};

/**
 * The module owning a kind of record the log keeps registers the table its rows live in (a payment
 * is recorded on an instalment), in modules/wiring.ts: the trail knows no module above the platform.
 */
export function registerAuditedTable(entity: AuditedEntity, table: AuditedTable): void {
  TABLES[entity] = table;
}

function tableOf(entity: AuditedEntity): AuditedTable {
  const table = TABLES[entity];
  if (!table) throw new Error(`No table is registered for the audited ${entity}.`);
  return table;
}

/** Bookkeeping the log has no use for: who owns the row, when it was touched, its own id. */
const UNRECORDED = new Set(['id', 'tenant_id', 'created_at', 'updated_at']);

type Snapshot = Record<string, unknown>;

/**
 * One row as the log keeps it: its columns by their API (database) names, without bookkeeping or
 * columns PostgreSQL derives from the others (search keys, display names).
 */
async function snapshot(tx: Transaction, tenantId: string, entity: AuditedEntity, id: string) {
  const table = tableOf(entity);
  const columns = getTableColumns(table);
  const [row] = await tx
    .select()
    .from(table)
    .where(and(eq(table.tenantId, tenantId), eq(table.id, id)));
  if (!row) return null;
  const kept: Snapshot = {};
  for (const [key, column] of Object.entries(columns)) {
    if (UNRECORDED.has(column.name) || column.generated) continue;
    const value = (row as Record<string, unknown>)[key];
    kept[column.name] = value instanceof Date ? value.toISOString() : value;
  }
  return kept;
}

/** A record added or removed is told by what it held: empty fields say nothing. */
const withoutBlanks = (row: Snapshot): Snapshot =>
  Object.fromEntries(
    Object.entries(row).filter(
      ([, value]) => value !== null && value !== '' && !(Array.isArray(value) && value.length === 0),
    ),
  );

export type AuditAction = 'create' | 'update' | 'delete' | (string & {});

/**
 * The audit log as one request writes to it, inside that request's tenant transaction: who (the
 * signed-in user), where from (address, user agent, request id), built once per request.
 */
export interface AuditTrail {
  /** Records a row just added, with every field it was given. */
  created(entity: AuditedEntity, id: string): Promise<void>;
  /**
   * Runs `write` on one existing row and records the fields it changed, before and after: a row
   * gone afterwards is a delete, otherwise `action` (an update unless named). Nothing changed,
   * nothing recorded.
   */
  changed<T>(entity: AuditedEntity, id: string, write: () => Promise<T>, action?: AuditAction): Promise<T>;
}

/** A user's email as their agency knows it, read inside its tenant transaction. */
export async function agencyUserEmail(tx: Transaction, userId: string): Promise<string | null> {
  const [user] = await tx
    .select({ email: agencyUsers.email })
    .from(agencyUsers)
    .where(eq(agencyUsers.id, userId));
  return user?.email ?? null;
}

export function auditTrail(tx: Transaction, request: FastifyRequest): AuditTrail {
  const { userId, tenantId } = signedInUser(request);
  const origin = auditOrigin(request);
  let actorEmail: Promise<string | null> | undefined;

  const record = async (action: AuditAction, entity: AuditedEntity, id: string, changes: FieldChanges) => {
    actorEmail ??= agencyUserEmail(tx, userId);
    await recordAudit(tx, origin, {
      tenantId,
      userId,
      actorEmail: await actorEmail,
      action,
      entity,
      entityId: id,
      changes,
    });
  };

  return {
    async created(entity, id) {
      const added = await snapshot(tx, tenantId, entity, id);
      await record('create', entity, id, changedFields(null, added && withoutBlanks(added)));
    },
    async changed(entity, id, write, action = 'update') {
      const before = await snapshot(tx, tenantId, entity, id);
      const result = await write();
      if (!before) return result;
      const after = await snapshot(tx, tenantId, entity, id);
      const changes = changedFields(before, after);
      if (!after) await record('delete', entity, id, changedFields(withoutBlanks(before), null));
      else if (Object.keys(changes).length > 0) await record(action, entity, id, changes);
      return result;
    },
  };
}
