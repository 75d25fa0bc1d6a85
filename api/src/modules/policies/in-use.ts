import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { countRows } from '../../db/query-helpers.js';
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

/**
 * Claims stay on record with their policy, so a policy with claims cannot be deleted. The claims
 * module tells the policies how to count a policy's claims and how to refuse its delete, in
 * modules/wiring.ts: the book knows nothing of the work done on it.
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
