import { randomUUID } from 'node:crypto';
import { buildSchedule, type PaymentFrequency } from '@coverdesk/contract';
import { withTenant } from '../src/db/tenant.js';
import { installments, policies } from '../src/modules/policies/tables.js';
import type { apiAs, TestApp } from './test-app.js';

type Caller = ReturnType<typeof apiAs>;

/** Who a policy is for, who insures it and what it covers. */
export interface PolicyParties {
  customerId: string;
  companyId: string;
  policyTypeId: string;
}

async function created(response: Promise<{ statusCode: number; json(): { id: string } }>) {
  const answer = await response;
  if (answer.statusCode !== 201) throw new Error(`setup failed with ${answer.statusCode}`);
  return answer.json().id;
}

/** A type, an insurer and a customer, added through the API as a broker would. */
export async function addPolicyParties(
  as: Caller,
  names: { customer?: [string, string]; company?: string } = {},
): Promise<PolicyParties> {
  const [firstName, lastName] = names.customer ?? ['Dana', 'Levi'];
  return {
    policyTypeId: await created(
      as.post('/api/policy-types/', { name: `Motor ${randomUUID().slice(0, 8)}`, category: 'auto' }),
    ),
    companyId: await created(as.post('/api/companies/', { name: names.company ?? 'Harel' })),
    customerId: await created(as.post('/api/customers/', { first_name: firstName, last_name: lastName })),
  };
}

export interface PolicyTerms {
  policy_number?: string;
  start_date?: string;
  end_date?: string;
  total_premium?: string;
  payment_frequency?: PaymentFrequency;
}

/**
 * A policy and its instalment schedule written straight to the database, for modules that read
 * or count policies without going through the policies API. Instalment ids come in sequence order.
 */
export async function insertPolicy(
  t: TestApp,
  tenantId: string,
  parties: PolicyParties,
  terms: PolicyTerms = {},
) {
  const values = {
    policy_number: `POL-${randomUUID().slice(0, 8)}`,
    start_date: '2026-01-01',
    end_date: '2026-12-31',
    total_premium: '1200.00',
    payment_frequency: 'single' as const,
    ...terms,
  };
  const schedule = buildSchedule(values);
  return withTenant(t.database.db, tenantId, async (tx) => {
    const [policy] = await tx
      .insert(policies)
      .values({
        tenantId,
        policyNumber: values.policy_number,
        customerId: parties.customerId,
        companyId: parties.companyId,
        policyTypeId: parties.policyTypeId,
        startDate: values.start_date,
        endDate: values.end_date,
        totalPremium: values.total_premium,
        netPremium: values.total_premium,
        commissionPercentage: '10.00',
        paymentFrequency: values.payment_frequency,
        totalInstallments: schedule.length,
      })
      .returning({ id: policies.id });
    if (!policy) throw new Error('the policy was not inserted');
    const rows = await tx
      .insert(installments)
      .values(
        schedule.map((item) => ({
          tenantId,
          policyId: policy.id,
          sequence: item.sequence,
          dueDate: item.due_date,
          amountDue: item.amount_due,
        })),
      )
      .returning({ id: installments.id, sequence: installments.sequence });
    return {
      id: policy.id,
      installmentIds: rows.sort((a, b) => a.sequence - b.sequence).map((row) => row.id),
    };
  });
}
