import type { Transaction } from '../db/client.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { conflict } from './errors.js';

/** One module's part of what uses a row: `{ policies: 3 }` from the policies for a customer. */
type UsagePart<Usage> = (tx: Transaction, tenantId: string, id: string) => Promise<Partial<Usage>>;

/**
 * What keeps a module's rows from being deleted, found by the modules whose rows point at them. A
 * lower module (customers, insurers, policy types) makes one for its rows and asks it before a
 * delete; each higher module pointing at them adds its part in modules/wiring.ts, so the lower one
 * names what stands in the way without importing who does. A part not added reads as `unused`;
 * the foreign key still refuses the delete, which the caller answers as 409.
 */
export function inUseRegistry<Usage extends object>(unused: Usage) {
  const parts: UsagePart<Usage>[] = [];
  return {
    add(part: UsagePart<Usage>): void {
      parts.push(part);
    },
    async of(tx: Transaction, tenantId: string, id: string): Promise<Usage> {
      let usage = { ...unused };
      for (const part of parts) usage = { ...usage, ...(await part(tx, tenantId, id)) };
      return usage;
    },
  };
}

/** The 409 before a delete, naming what is in the way: "Harel has 1 policy. Delete or move it first." */
export function refuseWhileUsed(name: string, count: number, [one, many]: [string, string]): void {
  if (count === 0) return;
  const them = count === 1 ? `1 ${one}. Delete or move it` : `${count} ${many}. Delete or move them`;
  throw conflict({ detail: `${name} has ${them} first.` });
}

/**
 * A row put to use between the check and the delete (a policy written for the customer): the foreign
 * key refuses the delete, and so do we, with 409.
 */
export const usedMeanwhile =
  (noun: string, one: string) =>
  (error: unknown): never => {
    if (isForeignKeyViolation(error)) {
      throw conflict({ detail: `This ${noun} has just been given a ${one}. Delete or move it first.` });
    }
    throw error;
  };
