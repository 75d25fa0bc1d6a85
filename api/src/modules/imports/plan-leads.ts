import { LEAD_SOURCE_LABELS, LEAD_STATUS_LABELS, type LeadValues, leadBody } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { findLead } from '../leads/queries.js';
import { leads } from '../leads/tables.js';
import { createLeads, updateLead } from '../leads/writes.js';
import { policyTypes } from '../policy-types/tables.js';
import { choiceCell } from './cells.js';
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

export async function planLeads(
  tx: Transaction,
  tenantId: string,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  const index = new KeyIndex<Match>();
  const stored = await tx
    .select({
      id: leads.id,
      email: leads.email,
      phone: leads.phone,
      first: leads.firstName,
      last: leads.lastName,
      business: leads.businessName,
    })
    .from(leads)
    .where(eq(leads.tenantId, tenantId));
  for (const lead of stored) {
    const name = lead.business || `${lead.first} ${lead.last}`;
    index.add(personKeys({ email: lead.email, phone: lead.phone }), { id: lead.id, label: `lead ${name}` });
  }
  const typeIds = await policyTypeIdsByName(tx, tenantId);
  const people = new PersonRows<LeadValues>(index, settings.duplicates);
  return {
    async plan(rows) {
      for (const { row, cells } of rows) {
        await giveWay();
        const values = fieldsOf(cells, settings.columns);
        const { body, rename } = customerFields(values, '', settings.dateOrder);
        const errors: Record<string, string[]> = {};
        if (values.source)
          body.source = choiceCell(values.source, LEAD_SOURCE_LABELS, { web: 'website', walkin: 'walk_in' });
        if (values.status) body.status = choiceCell(values.status, LEAD_STATUS_LABELS);
        if (values.lost_reason) body.lost_reason = values.lost_reason;
        if (values.estimated_premium) body.estimated_premium = values.estimated_premium;
        if (values.policy_type) {
          const typeId = typeIds.get(values.policy_type.toLowerCase());
          if (typeId) body.policy_type_id = typeId;
          else errors.policy_type = [`The agency has no policy type named "${values.policy_type}".`];
        }
        const parsed = leadBody.safeParse(body);
        if (parsed.success && Object.keys(errors).length === 0) {
          people.place(row, parsed.data, new Set(Object.keys(body)));
          continue;
        }
        const problems = parsed.success ? {} : errorsOf(parsed.error.issues, rename);
        people.fail(row, { ...problems, ...errors });
      }
      const { creates, updates, outcomes } = people.takeBatch();
      return {
        outcomes,
        adds: { leads: creates.length },
        prepare: () => async (tx) => {
          await createLeads(tx, tenantId, creates);
          for (const update of updates) {
            const lead = await findLead(tx, tenantId, update.id, { lock: true });
            if (!lead) continue;
            const merged = overlay(
              { ...lead, estimated_premium: lead.estimated_premium } as unknown as LeadValues,
              update.values,
              update.given,
            );
            await updateLead(tx, tenantId, update.id, merged);
          }
          return [];
        },
      };
    },
    finish: finishNothing,
    findings: NO_FINDINGS,
  };
}

async function policyTypeIdsByName(tx: Transaction, tenantId: string) {
  const rows = await tx
    .select({ id: policyTypes.id, name: policyTypes.name })
    .from(policyTypes)
    .where(eq(policyTypes.tenantId, tenantId));
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}
