// The insurers and policy types a policy file names, and the rates linking them: found among the
// agency's records or created with the first batch whose rows name them.
import { companyBody, policyTypeBody } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { createCompany } from '../companies/queries.js';
import { upsertRates } from '../companies/rates.js';
import type { companies } from '../companies/tables.js';
import { createPolicyType } from '../policy-types/queries.js';
import type { policyTypes } from '../policy-types/tables.js';

/** An insurer or type by its name, existing or first named by a row of the file. */
export interface Named {
  id: string;
  name: string;
  isNew: boolean;
}

/** An insurer's rate for a type, as stored or as first given by a row of the file. */
export type RateLink = { rate: string; isNew: boolean };

export async function namedRecords(
  tx: Transaction,
  tenantId: string,
  table: typeof companies | typeof policyTypes,
) {
  const rows = await tx
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(eq(table.tenantId, tenantId));
  return new Map<string, Named>(rows.map((row) => [row.name.toLowerCase(), { ...row, isNew: false }]));
}

/** Checks a name once however many rows repeat it: a book names a handful of insurers and types. */
export function nameChecker(schema: z.ZodType) {
  const seen = new Map<string, string[] | undefined>();
  return (name: string) => {
    if (!seen.has(name)) {
      const parsed = schema.safeParse(name);
      seen.set(name, parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message));
    }
    return seen.get(name);
  };
}

/** The records a batch creates beside its customers and policies. */
export interface NewParties {
  insurers: Named[];
  types: Named[];
  rates: [key: string, link: RateLink][];
}

/** The entries not yet claimed by a batch, claimed now. */
function claimNew<T>(entries: Iterable<T>, mark: (entry: T) => { isNew: boolean }): T[] {
  const claimed = [...entries].filter((entry) => mark(entry).isNew);
  for (const entry of claimed) mark(entry).isNew = false;
  return claimed;
}

/**
 * The insurers, types and rates linking them that the file named since the last batch was prepared,
 * each claimed by the batch being prepared. Claimed at once, before anything is written, so that
 * planning the next batch while this one is written cannot add to what this one creates.
 */
export function claimNewParties(parties: {
  insurers: Map<string, Named>;
  types: Map<string, Named>;
  rates: Map<string, RateLink>;
}): NewParties {
  return {
    insurers: claimNew(parties.insurers.values(), (insurer) => insurer),
    types: claimNew(parties.types.values(), (type) => type),
    rates: claimNew(parties.rates.entries(), ([, link]) => link),
  };
}

/** Creates a batch's new insurers, types and rates with the ids the plan gave them. */
export async function createParties(tx: Transaction, tenantId: string, parties: NewParties) {
  for (const insurer of parties.insurers) {
    await createCompany(tx, tenantId, companyBody.parse({ name: insurer.name }), insurer.id);
  }
  for (const type of parties.types) {
    await createPolicyType(
      tx,
      tenantId,
      policyTypeBody.parse({ name: type.name, category: 'other' }),
      type.id,
    );
  }
  for (const [key, link] of parties.rates) {
    const [companyId = '', typeId = ''] = key.split('|');
    await upsertRates(tx, tenantId, companyId, [
      { policy_type_id: typeId, custom_name: '', commission_percentage: link.rate },
    ]);
  }
}
