import { type CustomerValues, customerBody } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { createCustomers, findCustomer, updateCustomer } from '../customers/queries.js';
import { customers } from '../customers/tables.js';
import type { ImportPlanner, ImportSettings } from './plan.js';
import {
  customerFields,
  errorsOf,
  fieldsOf,
  finishNothing,
  giveWay,
  KeyIndex,
  type Match,
  NO_FINDINGS,
  overlay,
  PersonRows,
  personKeys,
} from './plan-rows.js';

export async function existingCustomers(tx: Transaction, tenantId: string) {
  const index = new KeyIndex<Match>();
  const rows = await tx
    .select({
      id: customers.id,
      name: customers.displayName,
      email: customers.email,
      phone: customers.phone,
      nationalId: customers.nationalId,
    })
    .from(customers)
    .where(eq(customers.tenantId, tenantId));
  for (const row of rows) {
    index.add(personKeys({ email: row.email, phone: row.phone, national_id: row.nationalId }), {
      id: row.id,
      label: `customer ${row.name}`,
    });
  }
  return { index, rows };
}

export async function planCustomers(
  tx: Transaction,
  tenantId: string,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  const { index } = await existingCustomers(tx, tenantId);
  const people = new PersonRows<CustomerValues>(index, settings.duplicates);
  return {
    async plan(rows) {
      for (const { row, cells } of rows) {
        await giveWay();
        const { body, rename } = customerFields(fieldsOf(cells, settings.columns), '', settings.dateOrder);
        const parsed = customerBody.safeParse(body);
        if (parsed.success) people.place(row, parsed.data, new Set(Object.keys(body)));
        else people.fail(row, errorsOf(parsed.error.issues, rename));
      }
      const { creates, updates, outcomes } = people.takeBatch();
      return {
        outcomes,
        adds: { customers: creates.length },
        prepare: () => async (tx) => {
          await createCustomers(tx, tenantId, creates);
          for (const update of updates) {
            const stored = await findCustomer(tx, tenantId, update.id, { lock: true });
            if (stored)
              await updateCustomer(tx, tenantId, update.id, overlay(stored, update.values, update.given));
          }
          return [];
        },
      };
    },
    finish: finishNothing,
    findings: NO_FINDINGS,
  };
}
