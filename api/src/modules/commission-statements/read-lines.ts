import {
  DateHintReader,
  type DateOrder,
  dateColumns,
  fitsMoney,
  guessColumnsOf,
  MAX_STATEMENT_LINES,
  missingStatementColumns,
  normalizedHeader,
  readSignedAmount,
  STATEMENT_FIELDS,
} from '@coverdesk/contract';
import { HttpError } from '../../http/errors.js';
import { dateCell, settledDateOrder } from '../imports/cells.js';
import { echoed, readImportFile } from '../imports/parse.js';
import { fieldsOf } from '../imports/plan-rows.js';

// A statement's file read into its lines: through the import's reading (a worker thread, the same
// bounds on size, rows, columns and what an XLSX expands to) and its column guessing, with the
// insurer's own remembered choices first.

export interface StatementFileLine {
  lineNumber: number;
  rawPolicyNumber: string;
  insuredName: string;
  premium: string | null;
  paidCommission: string;
  transactionDate: string | null;
  transactionType: string;
}

export interface StatementFile {
  /** The field each header fills, by `normalizedHeader`, to remember for the insurer. */
  mapping: Record<string, string | null>;
  lines: StatementFileLine[];
}

/** Past this many problems the file is refused without reading further. */
const MOST_PROBLEMS = 10;

/** A header's choice: the broker's for this file, else the insurer's remembered one. */
function choicesFor(given: Record<string, string | null> | undefined, saved: Record<string, string | null>) {
  const choices = { ...saved };
  for (const [header, field] of Object.entries(given ?? {})) choices[normalizedHeader(header)] = field;
  return choices;
}

/** What is wrong with a line's amount as read (undefined: it is no amount), if anything. */
function amountProblem(column: string, cell: string, read: string | undefined): string | false {
  if (read === undefined) return `the ${column} "${echoed(cell)}" is not an amount`;
  if (!fitsMoney(read)) return `the ${column} "${echoed(cell)}" is too large for an amount`;
  return false;
}

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));

/**
 * The statement's lines, each with its commission (negative for a chargeback); a policy number or an
 * insured's name on every line. A file whose columns cannot be told answers 400 with its headers and
 * the guess, for the broker to choose; a line that cannot be read, 400 naming its row. Dates written
 * "05/01/2026" are read in `dateOrder`, else in the order the file's dates settle; a file whose dates
 * all fit both orders, with none given, answers 400 asking for `date_order`.
 */
export function readStatementFile(
  bytes: Buffer,
  given: Record<string, string | null> | undefined,
  saved: Record<string, string | null>,
  dateOrder?: DateOrder,
): Promise<StatementFile> {
  return readImportFile(
    bytes,
    async ({ headers, rows }) => {
      const choices = choicesFor(given, saved);
      const columns = guessColumnsOf(STATEMENT_FIELDS, headers, choices);
      const missing = missingStatementColumns(columns);
      if (missing.length > 0) {
        throw new HttpError(400, {
          detail: `Choose the column that holds the ${missing.join(' and the ')}: the headers do not say.`,
          headers: headers.map(echoed),
          columns,
        });
      }
      // The lines are read through before their dates, whose order the whole column settles.
      const dates = new DateHintReader(headers.length);
      const read: { row: number; values: Record<string, string> }[] = [];
      for await (const { row, cells } of rows) {
        const values = fieldsOf(cells, columns);
        dates.read(cells);
        read.push({ row, values });
      }
      const order = settledDateOrder(
        headers.map(echoed),
        dates.hints(),
        dateColumns(STATEMENT_FIELDS, columns),
        dateOrder,
        ' and upload the file again',
      );
      const problems: string[] = [];
      const lines: StatementFileLine[] = [];
      for (const { row, values } of read) {
        const paid = readSignedAmount(values.commission ?? '');
        const premium = values.premium ? readSignedAmount(values.premium) : null;
        const date = values.transaction_date ? dateCell(values.transaction_date, order) : null;
        const rowProblems = [
          amountProblem('commission', values.commission ?? '', paid),
          premium !== null && amountProblem('premium', values.premium ?? '', premium),
          date !== null &&
            !isDate(date) &&
            `the date "${echoed(values.transaction_date ?? '')}" is not a date`,
          !values.policy_number && !values.insured_name && 'it names no policy number and no insured',
        ].filter((problem): problem is string => typeof problem === 'string');
        if (rowProblems.length > 0) {
          problems.push(`Row ${row}: ${rowProblems.join('; ')}.`);
          if (problems.length >= MOST_PROBLEMS) break;
          continue;
        }
        lines.push({
          lineNumber: row,
          rawPolicyNumber: values.policy_number ?? '',
          insuredName: values.insured_name ?? '',
          premium: premium ?? null,
          paidCommission: paid ?? '0.00',
          transactionDate: date,
          transactionType: values.transaction_type ?? '',
        });
      }
      if (problems.length > 0) {
        throw new HttpError(400, { detail: `Nothing was saved. ${problems.join(' ')}` });
      }
      const mapping = Object.fromEntries(
        headers.map((header, index) => [normalizedHeader(header), columns[index] ?? null]),
      );
      return { mapping, lines };
    },
    MAX_STATEMENT_LINES,
  );
}
