import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../db/client.js';
import { auditLog, type FieldChanges } from './tables.js';

/** Where a request came from, as the audit log keeps it. */
export interface AuditOrigin {
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** Work no request asked for at that moment (a job): no address, agent or request id to keep. */
export const JOB_ORIGIN: AuditOrigin = { ipAddress: null, userAgent: null, requestId: null };

export function auditOrigin(request: FastifyRequest): AuditOrigin {
  const userAgent = request.headers['user-agent'];
  return {
    ipAddress: request.ip ?? null,
    // A user agent is the caller's own text: kept, but never longer than a sane header.
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    requestId: request.id,
  };
}

/**
 * A request made with an account anonymous visitors share (the demo): its address and user agent
 * are a visitor's own, not the account's, so only the request id is kept.
 */
export const sharedAccountOrigin = (request: FastifyRequest): AuditOrigin => ({
  ...JOB_ORIGIN,
  requestId: request.id,
});

export interface AuditEntry {
  tenantId: string | null;
  userId: string | null;
  actorEmail?: string | null;
  action: string;
  entity?: string;
  entityId?: string;
  changes?: FieldChanges | null;
  reason?: string | null;
}

/**
 * Adds one row to the audit log, in the caller's transaction so the record and the change commit
 * together. Inside a tenant transaction the row must belong to that tenant (row-level security).
 */
export async function recordAudit(
  executor: Database | Transaction,
  origin: AuditOrigin,
  entry: AuditEntry,
): Promise<void> {
  await executor.insert(auditLog).values({
    tenantId: entry.tenantId,
    userId: entry.userId,
    actorEmail: entry.actorEmail ?? null,
    action: entry.action,
    entity: entry.entity ?? null,
    entityId: entry.entityId ?? null,
    changes: entry.changes ?? null,
    reason: entry.reason ?? null,
    ...origin,
  });
}

/**
 * The fields that differ between two versions of a record, each with its value before and after.
 * Fields only one side has count as changed; `before` null means created, `after` null deleted.
 */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): FieldChanges {
  const changes: FieldChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const was = before?.[key] ?? null;
    const now = after?.[key] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(now)) changes[key] = { before: was, after: now };
  }
  return changes;
}
