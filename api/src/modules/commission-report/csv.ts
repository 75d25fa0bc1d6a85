import type { CommissionReportRow } from '@coverdesk/contract';

// The report's rows as a CSV file that spreadsheet programs open as they are: UTF-8 with a byte
// order mark (without it Excel reads accented names as Windows-1252), comma-separated, CRLF lines.

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

export const BYTE_ORDER_MARK = '\uFEFF';

/**
 * One cell. Text a spreadsheet would run as a formula (starting with =, +, -, @, or a tab or
 * carriage return before one) gets a leading apostrophe, so a customer named "=HYPERLINK(...)"
 * stays a name. Numbers are the API's own strings, never negative, so they are left alone.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (cells: (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The first chunk of the file: the byte order mark and the heading row. */
export const csvHeader = () => BYTE_ORDER_MARK + line(COLUMNS.map(([, heading]) => heading));

/** A batch of rows as lines of the file. */
export const csvRows = (rows: CommissionReportRow[]) =>
  rows.map((row) => line(COLUMNS.map(([field]) => row[field]))).join('');
