import { PAYMENT_FREQUENCY_LABELS, POLICY_STATUS_LABELS } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { declareCursor, exportRows } from '../../db/cursor.js';
import { statementBuilder as qb, reusableStatement } from '../../db/reusable-statement.js';
import { type FileRow, fileLayout } from '../../http/table-file.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { policyTypes } from '../policy-types/tables.js';
import { expectedCommission, receivedCommission } from './commission.js';
import { type FilterShape, type Filters, filtersOf, matching, ordered } from './list-filters.js';
import { withParties } from './queries.js';
import { policyStatus } from './status.js';
import { policies } from './tables.js';

/** A policy as a line of the exported list: its parties, term, money and commission. */
export const policyFile = fileLayout([
  { field: 'policy_number', heading: 'Policy number', value: policies.policyNumber },
  { field: 'customer', heading: 'Customer', value: customers.displayName },
  { field: 'insurer', heading: 'Insurer', value: companies.name },
  { field: 'policy_type', heading: 'Policy type', value: policyTypes.name },
  { field: 'status', heading: 'Status', labels: POLICY_STATUS_LABELS, value: policyStatus },
  { field: 'start_date', heading: 'Start date', kind: 'date', value: policies.startDate },
  { field: 'end_date', heading: 'End date', kind: 'date', value: policies.endDate },
  { field: 'total_premium', heading: 'Total premium', kind: 'money', value: policies.totalPremium },
  { field: 'net_premium', heading: 'Net premium', kind: 'money', value: policies.netPremium },
  {
    field: 'commission_percentage',
    heading: 'Commission %',
    kind: 'number',
    value: policies.commissionPercentage,
  },
  {
    field: 'expected_commission',
    heading: 'Expected commission',
    kind: 'money',
    value: sql`${expectedCommission}::text`,
  },
  {
    field: 'received_commission',
    heading: 'Earned on customer payments',
    kind: 'money',
    value: sql`${receivedCommission}::text`,
  },
  {
    field: 'payment_frequency',
    heading: 'Payment frequency',
    labels: PAYMENT_FREQUENCY_LABELS,
    value: policies.paymentFrequency,
  },
  { field: 'amount_paid', heading: 'Amount paid', kind: 'money', value: policies.amountPaid },
  {
    field: 'installments_paid',
    heading: 'Instalments paid',
    kind: 'number',
    value: policies.installmentsPaid,
  },
  { field: 'total_installments', heading: 'Instalments', kind: 'number', value: policies.totalInstallments },
  { field: 'insured_item', heading: 'Insured item', value: policies.insuredItem },
  { field: 'sum_insured', heading: 'Sum insured', kind: 'money', value: policies.sumInsured },
  { field: 'deductible', heading: 'Deductible', kind: 'money', value: policies.deductible },
  { field: 'notes', heading: 'Notes', value: policies.notes },
]);

const EXPORT_CURSOR = 'policies_export';

/** The export's cursor over every matching policy in the list's order, built once per shape like the page. */
const POLICY_EXPORT = {
  name: 'policy-export',
  description: "The policy export's cursor, written once per set of filters and sort.",
};
const declarePolicyExport = reusableStatement<FilterShape, never>(POLICY_EXPORT, (shape) =>
  declareCursor(
    EXPORT_CURSOR,
    withParties(
      qb
        .select({ row: policyFile.row.as('row') })
        .from(policies)
        .$dynamic(),
    )
      .where(matching(shape))
      .orderBy(...ordered(shape.ordering)),
  ),
);

/** Every policy the list's search and filters match, in its order, a batch at a time. */
export function exportPolicies(tx: Transaction, tenantId: string, query: Filters) {
  const { shape, values } = filtersOf(tenantId, query);
  return exportRows<FileRow>(tx, EXPORT_CURSOR, () => declarePolicyExport(tx, shape, values));
}
