import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { countRows } from '../../db/query-helpers.js';
import { conflict } from '../../http/errors.js';
import { policies } from './tables.js';

/** The rows a policy points at, which cannot go while a policy still does. */
const PARTIES = {
  customer: policies.customerId,
  company: policies.companyId,
  policyType: policies.policyTypeId,
};

export async function countPoliciesOf(
  tx: Transaction,
  tenantId: string,
  party: keyof typeof PARTIES,
  id: string,
): Promise<number> {
  const [row] = await tx
    .select({ count: countRows() })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(PARTIES[party], id)));
  return row?.count ?? 0;
}

/** 409 naming how many policies still point at `name`, before a delete. */
export async function refuseWhilePolicies(
  tx: Transaction,
  tenantId: string,
  party: 'customer' | 'company',
  id: string,
  name: string,
): Promise<void> {
  const count = await countPoliciesOf(tx, tenantId, party, id);
  if (count === 0) return;
  const them = count === 1 ? '1 policy. Delete or move it' : `${count} policies. Delete or move them`;
  throw conflict({ detail: `${name} has ${them} first.` });
}

/** A policy written between the count and the delete: the foreign key refuses, and so do we, with 409. */
export const policyRaceConflict =
  (noun: string) =>
  (error: unknown): never => {
    if (isForeignKeyViolation(error)) {
      throw conflict({ detail: `This ${noun} has just been given a policy. Delete or move it first.` });
    }
    throw error;
  };

/**
 * Claims stay on record with their policy, so a policy with claims cannot be deleted. The claims
 * module tells the policies how to count a policy's claims and how to refuse its delete, when it
 * loads: the book knows nothing of the work done on it.
 */
export interface ClaimsOnPolicy {
  /** How many claims are on the policy. */
  count(tx: Transaction, tenantId: string, policyId: string): Promise<number>;
  /** 409 naming how many claims keep the policy, before it is deleted (plainly or securely). */
  refuse(tx: Transaction, tenantId: string, policy: { id: string; policyNumber: string }): Promise<void>;
  /** The 409 for a claim reported between the count and the delete, which the foreign key refuses. */
  raceConflict(policyNumber: string): (error: unknown) => never;
}

let claimsHook: ClaimsOnPolicy | undefined;

export function registerClaimsOnPolicy(hook: ClaimsOnPolicy): void {
  claimsHook = hook;
}

export function claimsOnPolicy(): ClaimsOnPolicy {
  if (!claimsHook) throw new Error('The claims module has not registered how to count claims on a policy.');
  return claimsHook;
}
