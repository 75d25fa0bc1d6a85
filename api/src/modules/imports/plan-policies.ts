import {
  addDays,
  buildSchedule,
  type CustomerValues,
  companyBody,
  customerBody,
  type DateOrder,
  dueBy,
  fromCents,
  type ImportNewInsurer,
  isoDate,
  moneyInput,
  PAYMENT_FREQUENCY_LABELS,
  type PolicyValues,
  policyBody,
  policyTypeBody,
  toCents,
} from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Transaction } from '../../db/client.js';
import { uuidv7Source } from '../../db/columns.js';
import { companies, companyPolicyTypes } from '../companies/tables.js';
import { createCustomers } from '../customers/queries.js';
import { findPolicyForChange } from '../policies/queries.js';
import { policies } from '../policies/tables.js';
import {
  bulkStatistics,
  catchUpKeptTotals,
  changedSchedule,
  type NewPolicy,
  policyInput,
  policyInsertsDeferringTotals,
  runInOrder,
  updatePolicy,
} from '../policies/writes.js';
import { policyTypes } from '../policy-types/tables.js';
import { choiceCell, dateCell, FREQUENCY_ALIASES } from './cells.js';
import type { FileRow } from './parse.js';
import type { BatchPlan, ImportPlanner, ImportSettings, RowOutcome } from './plan.js';
import { existingCustomers } from './plan-customers.js';
import { claimNewParties, createParties, nameChecker, namedRecords, type RateLink } from './plan-parties.js';
import {
  customerFields,
  duplicateOutcome,
  errorsOf,
  failed,
  fieldsOf,
  giveWay,
  type Match,
  personKeys,
} from './plan-rows.js';

/** Stands in for the customer, insurer and type while the row's own fields are checked. */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

const POLICY_FIELDS = [
  'policy_number',
  'start_date',
  'end_date',
  'total_premium',
  'net_premium',
  'commission_percentage',
  'payment_frequency',
  'custom_installments',
  'insured_item',
  'sum_insured',
  'deductible',
  'notes',
] as const;

function policyFields(values: Record<string, string>, dateOrder: DateOrder) {
  const body: Record<string, unknown> = {
    customer_id: PLACEHOLDER_ID,
    company_id: PLACEHOLDER_ID,
    policy_type_id: PLACEHOLDER_ID,
  };
  for (const key of POLICY_FIELDS) {
    const value = values[key];
    if (value === undefined) continue;
    if (key === 'start_date' || key === 'end_date') body[key] = dateCell(value, dateOrder);
    else if (key === 'payment_frequency')
      body[key] = choiceCell(value, PAYMENT_FREQUENCY_LABELS, FREQUENCY_ALIASES);
    else body[key] = value;
  }
  return body;
}

type PaidSchedule = ReturnType<typeof buildSchedule>;

/** The import's own payments say so in their reference, cut to what a reference holds. */
const importReference = (fileName: string) => `Recorded by the import of ${fileName}`.slice(0, 100);

/**
 * What a row says was paid on its policy: a paid amount (at most the premium), or a paid-up date
 * (the instalments due by then); undefined when it says neither. Problems are keyed by field.
 */
function statedPayment(
  values: Record<string, string>,
  policy: PolicyValues,
  schedule: PaidSchedule,
  dateOrder: DateOrder,
): { amount?: string; errors: Record<string, string[]> } {
  const amountText = values.amount_paid;
  const upToText = values.paid_up_to;
  if (amountText !== undefined && upToText !== undefined) {
    return { errors: { row: ['Give a paid-up date or a paid amount, not both.'] } };
  }
  if (amountText !== undefined) {
    const amount = moneyInput.safeParse(amountText);
    if (!amount.success)
      return { errors: { amount_paid: amount.error.issues.map((issue) => issue.message) } };
    if (toCents(amount.data) > toCents(policy.total_premium)) {
      return { errors: { amount_paid: [`More than the premium of ${policy.total_premium}.`] } };
    }
    return { amount: amount.data, errors: {} };
  }
  if (upToText !== undefined) {
    const upTo = isoDate.safeParse(dateCell(upToText, dateOrder));
    if (!upTo.success) return { errors: { paid_up_to: upTo.error.issues.map((issue) => issue.message) } };
    return { amount: dueBy(schedule, upTo.data), errors: {} };
  }
  return { errors: {} };
}

export async function planPolicies(
  tx: Transaction,
  tenantId: string,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  const { index: people } = await existingCustomers(tx, tenantId);
  const insurers = await namedRecords(tx, tenantId, companies);
  const types = await namedRecords(tx, tenantId, policyTypes);
  const rates = new Map<string, RateLink>();
  for (const link of await tx
    .select({
      companyId: companyPolicyTypes.companyId,
      typeId: companyPolicyTypes.policyTypeId,
      rate: companyPolicyTypes.commissionPercentage,
    })
    .from(companyPolicyTypes)
    .where(eq(companyPolicyTypes.tenantId, tenantId))) {
    rates.set(`${link.companyId}|${link.typeId}`, { rate: link.rate, isNew: false });
  }
  const policyKeys = new Map<string, Match>();
  for (const policy of await tx
    .select({
      id: policies.id,
      companyId: policies.companyId,
      number: policies.policyNumber,
      start: policies.startDate,
    })
    .from(policies)
    .where(eq(policies.tenantId, tenantId))) {
    policyKeys.set(`${policy.companyId}|${policy.number}|${policy.start}`, {
      id: policy.id,
      label: `policy ${policy.number}`,
    });
  }

  const insurerNameProblem = nameChecker(companyBody.shape.name);
  const typeNameProblem = nameChecker(policyTypeBody.shape.name);
  const newId = uuidv7Source();
  // The import's day as the database has it: the day its overdue instalments are counted from.
  const [{ today = '' } = {}] = (await tx.execute<{ today: string }>(sql`select current_date::text as today`))
    .rows;
  const yesterday = addDays(today, -1);
  const reference = importReference(settings.fileName);
  const pastDue = { policies: 0, instalments: 0, cents: 0n, expired_policies: 0 };
  // The insurers the file names that the agency lacks, with their new policies that earn nothing.
  const newInsurers = new Map<string, ImportNewInsurer>();
  // Policies inserted with the kept totals deferred, brought up to date by `finish`.
  const inserted: string[] = [];
  const statistics = bulkStatistics();

  /**
   * What a row that says nothing of its payments has paid: the instalments due before today, unless
   * the broker leaves them unpaid; a policy already ended is taken as paid unless the broker says so
   * too, so that it cannot turn into overdue debt. Counted for the check step's question either way.
   */
  const pastPayment = (endDate: string, schedule: PaidSchedule): string => {
    const past = schedule.filter((instalment) => instalment.due_date < today);
    if (past.length === 0) return '0.00';
    const expired = endDate < today;
    pastDue.policies += 1;
    pastDue.instalments += past.length;
    pastDue.cents += toCents(dueBy(past, yesterday));
    if (expired) pastDue.expired_policies += 1;
    const leftUnpaid = settings.pastInstalments === 'unpaid' && (!expired || settings.expiredUnpaid);
    return leftUnpaid ? '0.00' : dueBy(schedule, yesterday);
  };

  const plan = async (rows: FileRow[]): Promise<BatchPlan> => {
    const newCustomers: { id: string; values: CustomerValues }[] = [];
    const creates: NewPolicy[] = [];
    const updates: { row: number; id: string; values: PolicyValues; rate: string }[] = [];
    const outcomes: RowOutcome[] = [];
    for (const { row, cells } of rows) {
      await giveWay();
      const values = fieldsOf(cells, settings.columns);
      const errors: Record<string, string[]> = {};

      const insurerName = values.company?.trim() ?? '';
      const typeNameText = values.policy_type?.trim() ?? '';
      const insurerProblem = insurerNameProblem(insurerName);
      if (insurerProblem) errors.company = insurerProblem;
      const typeProblem = typeNameProblem(typeNameText);
      if (typeProblem) errors.policy_type = typeProblem;

      // The customer: found by id number, email, phone or name, or created from the row.
      const { body: customer, rename } = customerFields(values, 'customer_', settings.dateOrder);
      const displayName =
        (customer.business_name as string | undefined) ||
        [customer.first_name, customer.last_name].filter(Boolean).join(' ');
      const keys = personKeys(customer as Record<string, string>, displayName);
      let customerMatch = people.find(keys);
      let newCustomer: CustomerValues | undefined;
      if (!customerMatch) {
        const parsed = customerBody.safeParse(customer);
        if (parsed.success) newCustomer = parsed.data;
        else Object.assign(errors, errorsOf(parsed.error.issues, rename));
      }

      const parsed = policyBody.safeParse(policyFields(values, settings.dateOrder));
      if (!parsed.success) Object.assign(errors, errorsOf(parsed.error.issues));
      const schedule = parsed.success ? buildSchedule(parsed.data) : [];
      const stated = parsed.success
        ? statedPayment(values, parsed.data, schedule, settings.dateOrder)
        : { errors: {} };
      Object.assign(errors, stated.errors);
      if (!parsed.success || Object.keys(errors).length > 0) {
        outcomes.push(failed(row, errors));
        continue;
      }

      // The row is good: whatever it names that the agency lacks is created with it.
      let insurer = insurers.get(insurerName.toLowerCase());
      if (!insurer) {
        insurer = { id: uuidv7(), name: insurerName, isNew: true };
        newInsurers.set(insurer.id, { name: insurerName, policies: 0 });
      }
      insurers.set(insurerName.toLowerCase(), insurer);
      const type = types.get(typeNameText.toLowerCase()) ?? { id: uuidv7(), name: typeNameText, isNew: true };
      types.set(typeNameText.toLowerCase(), type);
      const linkKey = `${insurer.id}|${type.id}`;
      const link = rates.get(linkKey) ?? { rate: parsed.data.commission_percentage ?? '0.00', isNew: true };
      rates.set(linkKey, link);
      if (!customerMatch && newCustomer) {
        customerMatch = { id: newId(), label: '', fromRow: row };
        people.add(keys, customerMatch);
        newCustomers.push({ id: customerMatch.id, values: newCustomer });
      }
      const policyValues: PolicyValues = {
        ...parsed.data,
        customer_id: customerMatch?.id ?? '',
        company_id: insurer.id,
        policy_type_id: type.id,
      };
      const policyKey = `${insurer.id}|${policyValues.policy_number}|${policyValues.start_date}`;
      const existing = policyKeys.get(policyKey);
      if (existing) {
        const outcome = duplicateOutcome(row, existing, settings.duplicates);
        outcomes.push(outcome);
        if (outcome.action === 'update') {
          updates.push({ row, id: existing.id, values: policyValues, rate: link.rate });
        }
        continue;
      }
      const id = newId();
      policyKeys.set(policyKey, { id, label: '', fromRow: row });
      const input = policyInput(policyValues, link.rate);
      const unrated = newInsurers.get(insurer.id);
      if (unrated && toCents(input.commission_percentage) === 0n) unrated.policies += 1;
      const paid = stated.amount ?? pastPayment(input.end_date, schedule);
      creates.push({
        id,
        ...input,
        paid: toCents(paid) > 0n ? { amount: paid, until: today, reference } : undefined,
      });
      outcomes.push({ row, action: 'create', errors: {}, note: '' });
    }

    return {
      outcomes,
      adds: { customers: newCustomers.length, policies: creates.length },
      prepare() {
        const parties = claimNewParties({ insurers, types, rates });
        const inserts = policyInsertsDeferringTotals(tenantId, creates);
        return async (tx) => {
          // New insurers and types first: the rows that name them follow.
          await createParties(tx, tenantId, parties);
          await createCustomers(tx, tenantId, newCustomers);
          await statistics(tx, inserted.length);
          await runInOrder(tx, inserts);
          for (const input of creates) inserted.push(input.id);
          return updatePolicies(tx, tenantId, updates);
        };
      },
    };
  };

  return {
    plan,
    async finish(tx) {
      await statistics(tx, inserted.length);
      await catchUpKeptTotals(tx, inserted);
    },
    findings: () => ({
      pastDue: {
        policies: pastDue.policies,
        instalments: pastDue.instalments,
        amount: fromCents(pastDue.cents),
        expired_policies: pastDue.expired_policies,
      },
      newInsurers: [...newInsurers.values()].filter((insurer) => insurer.policies > 0),
    }),
  };
}

/** Rows that update policies, unless payments on a policy keep its schedule as it is. */
async function updatePolicies(
  tx: Transaction,
  tenantId: string,
  updates: { row: number; id: string; values: PolicyValues; rate: string }[],
): Promise<RowOutcome[]> {
  const refused: RowOutcome[] = [];
  for (const update of updates) {
    const stored = await findPolicyForChange(tx, tenantId, update.id);
    if (!stored) continue;
    const input = policyInput(update.values, update.rate);
    const schedule = await changedSchedule(tx, tenantId, update.id, input);
    if (schedule && stored.hasPayments) {
      refused.push(
        failed(update.row, {
          row: [
            'Payments are recorded on this policy, so its premium and schedule cannot change. Undo those payments first.',
          ],
        }),
      );
      continue;
    }
    await updatePolicy(tx, tenantId, update.id, input, schedule);
  }
  return refused;
}
