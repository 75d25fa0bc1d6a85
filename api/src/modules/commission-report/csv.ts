import type { CommissionReportRow } from '@coverdesk/contract';
import { csvLayout } from '../../http/csv.js';

// The report's rows as a CSV file (see http/csv.ts); numbers are the API's own strings.

/** The columns, in order, with the heading each gets. */
const COLUMNS: [keyof CommissionReportRow, string][] = [
  ['policy_number', 'Policy number'],
  ['customer_name', 'Customer'],
  ['company_name', 'Insurer'],
  ['commission_payment_method', 'Commission paid'],
  ['policy_type_name', 'Policy type'],
  ['status', 'Status'],
  ['start_date', 'Start date'],
  ['end_date', 'End date'],
  ['total_premium', 'Total premium'],
  ['net_premium', 'Net premium'],
  ['commission_percentage', 'Commission %'],
  ['expected_commission', 'Expected commission'],
  ['received_commission', 'Received commission'],
  ['outstanding_commission', 'Outstanding commission'],
  ['received_commission_percentage', 'Received %'],
  ['payment_status', 'Payment status'],
  ['installments_paid', 'Instalments paid'],
  ['total_installments', 'Instalments'],
  ['amount_paid', 'Amount paid'],
  ['created_at', 'Created at'],
];

export const { header: csvHeader, rows: csvRows } = csvLayout(COLUMNS);
