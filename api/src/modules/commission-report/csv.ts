import {
  COMMISSION_PAYMENT_METHOD_LABELS,
  COMMISSION_PAYMENT_STATUS_LABELS,
  type CommissionReportRow,
  POLICY_STATUS_LABELS,
} from '@coverdesk/contract';
import type { ChoiceLabels } from '../../http/csv.js';
import { csvLayout } from '../../http/csv.js';

// The report's rows as a CSV file (see http/csv.ts); numbers are the API's own strings, choices
// the labels the report's screen shows.

/** The columns, in order, with the heading each gets. */
const COLUMNS: [keyof CommissionReportRow, string, ChoiceLabels?][] = [
  ['policy_number', 'Policy number'],
  ['customer_name', 'Customer'],
  ['company_name', 'Insurer'],
  ['commission_payment_method', 'Commission paid', COMMISSION_PAYMENT_METHOD_LABELS],
  ['policy_type_name', 'Policy type'],
  ['status', 'Status', POLICY_STATUS_LABELS],
  ['start_date', 'Start date'],
  ['end_date', 'End date'],
  ['total_premium', 'Total premium'],
  ['net_premium', 'Net premium'],
  ['commission_percentage', 'Commission %'],
  ['expected_commission', 'Expected commission'],
  ['received_commission', 'Earned on customer payments'],
  ['outstanding_commission', 'Outstanding commission'],
  ['received_commission_percentage', 'Earned on payments %'],
  ['payment_status', 'Payment status', COMMISSION_PAYMENT_STATUS_LABELS],
  ['installments_paid', 'Instalments paid'],
  ['total_installments', 'Instalments'],
  ['amount_paid', 'Amount paid'],
  ['insurer_paid_commission', 'Paid by insurer'],
  ['owed_by_insurer', 'Owed by insurer'],
  ['created_at', 'Created at'],
];

export const { header: csvHeader, rows: csvRows } = csvLayout(COLUMNS);
