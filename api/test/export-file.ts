import type { ModuleName } from '@coverdesk/contract';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { addPlanWithout, type apiAs, setSubscription, type TestApp } from './test-app.js';

type Caller = ReturnType<typeof apiAs>;

/** A file's cells: the heading row, then a row per record. */
export type Table = unknown[][];

/** A CSV as a spreadsheet reads it: quoted cells may hold commas, quotes and line breaks. */
export function csvTable(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const text = body.replace(/^\uFEFF/, '');
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  return rows;
}

/** An XLSX's first sheet as Excel reads it: numbers as numbers, dates as dates, empty cells null. */
export async function xlsxTable(file: Buffer): Promise<Table> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  if (!sheet) throw new Error('the workbook has no sheet');
  const width = sheet.getRow(1).cellCount;
  const rows: Table = [];
  sheet.eachRow((row) => {
    rows.push(Array.from({ length: width }, (_, index) => row.getCell(index + 1).value ?? null));
  });
  return rows;
}

/** The number format Excel shows a cell of the sheet's second row in. */
export async function xlsxFormats(file: Buffer): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const row = book.worksheets[0]?.getRow(2);
  return Array.from({ length: row?.cellCount ?? 0 }, (_, index) => row?.getCell(index + 1).numFmt ?? '');
}

/**
 * A list's export in both formats, checked to be the files a browser saves: the list's name and the
 * day in the file name, the spreadsheet types. Answers both tables.
 */
export async function exportBoth(as: Caller, path: string, query = '') {
  const csv = await as.get(`${path}?format=csv&${query}`);
  expect(csv.statusCode, csv.body).toBe(200);
  expect(csv.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
  expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="[a-z-]+-\d{4}-\d\d-\d\d\.csv"$/);
  expect(csv.body.startsWith('\uFEFF')).toBe(true);

  const xlsx = await as.get(`${path}?format=xlsx&${query}`);
  expect(xlsx.statusCode, xlsx.body).toBe(200);
  expect(xlsx.headers['content-type']).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(xlsx.headers['content-disposition']).toMatch(
    /^attachment; filename="[a-z-]+-\d{4}-\d\d-\d\d\.xlsx"$/,
  );
  return {
    csv: csvTable(csv.body),
    xlsx: await xlsxTable(xlsx.rawPayload),
    xlsxFile: xlsx.rawPayload,
    fileName: String(csv.headers['content-disposition']).replace(/^.*filename="(.*)\.csv"$/, '$1'),
  };
}

/** One column of a table by its heading, without the heading. */
export function column(table: Table, heading: string): unknown[] {
  const index = table[0]?.indexOf(heading) ?? -1;
  if (index < 0) throw new Error(`no column "${heading}" in ${JSON.stringify(table[0])}`);
  return table.slice(1).map((row) => row[index]);
}

/** A date cell as Excel holds it: the day at midnight UTC. */
export const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

/**
 * An export refuses a format it does not make with the field's message, and holds its module's plan
 * gate as the list does: 403 on a plan without the module, 402 once the subscription has lapsed.
 */
export async function expectFormatAndGate(
  t: TestApp,
  agency: { as: Caller; user: { tenant_id: string } },
  path: string,
  module: ModuleName,
) {
  const refused = await agency.as.get(`${path}?format=pdf`);
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toEqual({ format: ['Choose csv or xlsx.'] });

  await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, module) });
  const excluded = await agency.as.get(`${path}?format=xlsx`);
  expect(excluded.statusCode).toBe(403);
  expect(excluded.json().detail).toMatch(/does not include/);
  await setSubscription(t, agency.user.tenant_id, { status: 'expired' });
  expect((await agency.as.get(path)).statusCode).toBe(402);
}
