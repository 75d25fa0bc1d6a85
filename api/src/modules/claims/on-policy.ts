import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { countRows } from '../../db/query-helpers.js';
import { conflict } from '../../http/errors.js';
import { claims } from './tables.js';

/** How many claims are on a policy: while any is, the policy cannot be deleted. */
export async function countClaimsOnPolicy(tx: Transaction, tenantId: string, policyId: string) {
  const [row] = await tx
    .select({ count: countRows() })
    .from(claims)
    .where(and(eq(claims.tenantId, tenantId), eq(claims.policyId, policyId)));
  return row?.count ?? 0;
}

const keptClaims = (policyNumber: string, count: number) => {
  const [claimed, these] =
    count === 1
      ? ['1 claim', 'the claim first if it was']
      : [`${count} claims`, 'the claims first if they were'];
  return `Policy ${policyNumber} has ${claimed}, so it cannot be deleted: claims stay on record with their policy. Delete ${these} reported by mistake, or cancel the policy instead.`;
};

/** 409 naming how many claims keep the policy, before it is deleted (plainly or securely). */
export async function refuseWhileClaims(
  tx: Transaction,
  tenantId: string,
  policy: { id: string; policyNumber: string },
): Promise<void> {
  const count = await countClaimsOnPolicy(tx, tenantId, policy.id);
  if (count > 0) throw conflict({ detail: keptClaims(policy.policyNumber, count) });
}

/** A claim reported between the count and the delete: the foreign key refuses, and so do we, with 409. */
export const claimRaceConflict = (policyNumber: string) => (error: unknown) => {
  if (isForeignKeyViolation(error)) {
    throw conflict({
      detail: `A claim has just been reported on policy ${policyNumber}, so it cannot be deleted.`,
    });
  }
  throw error;
};
