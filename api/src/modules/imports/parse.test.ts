import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { repeated, workbookOf } from '../../../test/workbook-files.js';
import { HttpError } from '../../http/errors.js';
import { columnName } from './file-bounds.js';
import { type FileRow, readImportFile, surveyImportFile } from './parse.js';

/** The whole file as the worker thread reads it. */
function readAll(bytes: Buffer, maxRows?: number) {
  return readImportFile(
    bytes,
    async ({ headers, rows }) => {
      const all: FileRow[] = [];
      for await (const row of rows) all.push(row);
      return { headers, rows: all };
    },
    maxRows,
  );
}

/** What reading the file was refused with: the status and the sentence the broker reads. */
async function refusal(reading: Promise<unknown>) {
  const error = await reading.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { statusCode, body } = error as HttpError;
  return { statusCode, detail: body.detail };
}

describe('reading a delimited file', () => {
  it('keeps a character whose bytes fall either side of a slice read separately', async () => {
    const header = 'Name;Premium\n';
    // The euro sign is three bytes in UTF-8; the filler rows put its first byte last in the first 64 KiB slice.
    const filler = `${'a'.repeat(99)};1\n`;
    const rows = Math.floor((64 * 1024 - header.length) / filler.length);
    const pad = 64 * 1024 - 1 - header.length - rows * filler.length;
    const names = [`${'b'.repeat(pad)}€`, 'Zoë Ødegård', 'Łukasz Müller'];
    const text = `${header}${filler.repeat(rows)}${names.map((name) => `${name};1200`).join('\n')}\n`;
    const file = Buffer.from(text, 'utf8');
    expect(file.subarray(64 * 1024 - 1, 64 * 1024 + 2).toString('utf8')).toBe('€');

    const parsed = await readAll(file);

    expect(parsed.headers).toEqual(['Name', 'Premium']);
    expect(parsed.rows.slice(rows).map((row) => row.cells[0])).toEqual(names);
  });

  it('reads Windows-1252 text, where the same characters are one byte each', async () => {
    const parsed = await readAll(iconv.encode('Name,City\r\n"Müller, Zoë",Málaga €\r\n', 'win1252'));

    expect(parsed.rows).toEqual([{ row: 2, cells: ['Müller, Zoë', 'Málaga €'] }]);
  });

  it('refuses a file with zero bytes in it, which no spreadsheet writes as text', async () => {
    expect(await refusal(readAll(Buffer.from([0x41, 0x00, 0x42, 0x0a])))).toMatchObject({ statusCode: 400 });
  });

  it('refuses a row of more columns than an import reads, before reading further', async () => {
    const wide = Buffer.from(`${Array.from({ length: 1_000_000 }, () => '').join(',')}\nx\n`);
    expect(await refusal(readAll(wide))).toEqual({
      statusCode: 422,
      detail:
        'Row 1 has 1,000,000 columns; an import reads at most 200. Remove the columns you do not need, or split the file.',
    });
  });

  it('refuses a cell longer than a spreadsheet cell, and a quote left open to the end of a large file', async () => {
    const long = Buffer.from(`Name,Notes\nDana,${'n'.repeat(40_000)}\n`);
    expect(await refusal(readAll(long))).toEqual({
      statusCode: 422,
      detail:
        'Row 2, column B, holds a cell of more than 32,767 characters, more than a spreadsheet cell takes. Shorten it or delete that column from the file, then upload it again.',
    });
    const open = Buffer.from(`Name,Notes\nDana,"${'n'.repeat(5 * 1024 * 1024)}\n`);
    expect(await refusal(readAll(open))).toEqual({
      statusCode: 422,
      detail: 'Row 2 holds a row of more than 1 MB of text. Check that its quotes are closed, or split it.',
    });
  });

  it('cuts the examples an upload keeps to what a screen shows', async () => {
    const survey = await surveyImportFile(Buffer.from(`Name,Notes\nDana,${'n'.repeat(30_000)}\n`));
    expect(survey.totalRows).toBe(1);
    expect(survey.sample[0]?.[1]).toBe(`${'n'.repeat(199)}…`);
  });

  it('refuses more rows than the caller takes', async () => {
    expect(await refusal(readAll(Buffer.from(`Name\n${'x\n'.repeat(1_001)}`), 1_000))).toEqual({
      statusCode: 422,
      detail: 'The file has more than 1,000 rows, the most an import takes. Split it into smaller files.',
    });
    expect((await readAll(Buffer.from(`Name\n${'x\n'.repeat(1_000)}`), 1_000)).rows).toHaveLength(1_000);
  });
});

describe('naming a column', () => {
  it('names it as a spreadsheet does', () => {
    expect([0, 25, 26, 701, 16_383].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'XFD']);
  });
});

describe('reading a workbook', () => {
  it('reads cells as a spreadsheet program shows them', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Book');
    sheet.addRow(['Name', 'Start', 'Premium', 'Active', 'Total', 'Notes']);
    sheet.addRow([
      'Dana & Co <Ltd>',
      new Date(Date.UTC(2026, 2, 1)),
      1250.5,
      true,
      { formula: 'C2*2', result: 2501 },
      { richText: [{ text: 'VIP ' }, { text: 'client', font: { bold: true } }] },
    ]);
    sheet.getCell('A4').value = 'Omer';
    sheet.getCell('D4').value = false;
    const parsed = await readAll(Buffer.from(await workbook.xlsx.writeBuffer()));

    expect(parsed.headers).toEqual(['Name', 'Start', 'Premium', 'Active', 'Total', 'Notes']);
    expect(parsed.rows).toEqual([
      { row: 2, cells: ['Dana & Co <Ltd>', '2026-03-01', '1250.5', 'true', '2501', 'VIP client'] },
      { row: 4, cells: ['Omer', '', '', 'false'] },
    ]);
  });

  it('reads inline strings, custom date formats and dates counted from 1904', async () => {
    const file = await workbookOf({
      cellFormats: [0, 164],
      customFormats: { 164: 'dd/mm/yyyy' },
      sharedStrings: ['<si><t>Name</t></si><si><r><t>Start</t></r><rPh><t>sutaato</t></rPh></si>'],
      sheetData: [
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>',
        '<row r="2"><c r="A2" t="inlineStr"><is><t>Noa &amp; Bar</t></is></c><c r="B2" s="1"><v>46082</v></c></row>',
      ],
    });
    expect(await readAll(file)).toEqual({
      headers: ['Name', 'Start'],
      rows: [{ row: 2, cells: ['Noa & Bar', '2026-03-01'] }],
    });
  });

  it('leaves out characters XML does not allow, which the database could not store', async () => {
    const file = await workbookOf({
      sheetData: [
        '<row r="1"><c t="inlineStr"><is><t>Name</t></is></c></row>',
        '<row r="2"><c t="inlineStr"><is><t>Da&#xD800;na&#0;\u0000 &#x1F600;</t></is></c></row>',
      ],
    });
    expect((await readAll(file)).rows).toEqual([{ row: 2, cells: ['Dana 😀'] }]);
  });

  it('stops a shared-strings bomb at the first bound it crosses', async () => {
    // The probe's bomb held five million such texts (5 GB); the reading stops at the 64,000th.
    const bomb = await workbookOf({
      sharedStrings: repeated(100_000, () => `<si><t>${'x'.repeat(1_000)}</t></si>`),
      sheetData: ['<row r="1"><c t="s"><v>0</v></c></row>'],
    });
    const tooMuchText = {
      statusCode: 422,
      detail:
        'This spreadsheet holds more text than an import reads (at most 1,000,000 different texts, of 64 million characters in all); split it or save it as CSV.',
    };
    expect(await refusal(readAll(bomb))).toEqual(tooMuchText);
  }, 60_000);

  it('refuses more shared strings than an import reads', async () => {
    const many = await workbookOf({
      sharedStrings: repeated(1_000_001, (index) => `<si><t>${index}</t></si>`),
      sheetData: ['<row r="1"><c t="s"><v>0</v></c></row>'],
    });
    expect(await refusal(readAll(many))).toMatchObject({
      statusCode: 422,
      detail: expect.stringMatching(/^This spreadsheet holds more text/),
    });
  });

  it('stops a sheet that expands past the bound, and one text that never ends', async () => {
    // 110,000 rows, fewer than an import takes, of 2,000 characters each: 220 MB once unzipped.
    const row = (index: number) =>
      `<row r="${index + 1}"><c t="inlineStr"><is><t>${'x'.repeat(2_000)}</t></is></c></row>`;
    const sheetBomb = await workbookOf({ sheetData: repeated(110_000, row) });
    expect(await refusal(readAll(sheetBomb))).toEqual({
      statusCode: 413,
      detail: 'This file expands to more than 200 MB of data; split it or save it as CSV.',
    });

    const endless = await workbookOf({
      sheetData: ['<row r="1"><c t="inlineStr"><is><t>', ...repeated(1_000, () => 'y'.repeat(1_000))],
    });
    expect(await refusal(readAll(endless))).toMatchObject({
      statusCode: 422,
      detail: expect.stringContaining('holds a cell of more than 32,767 characters'),
    });
  }, 60_000);

  it("refuses a column past the last an import reads, and never echoes the program's error", async () => {
    const far = await workbookOf({
      sheetData: ['<row r="1"><c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>'],
    });
    expect(await refusal(readAll(far))).toMatchObject({
      statusCode: 422,
      detail: expect.stringMatching(/^Row 1 has 16,384 columns/),
    });

    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    expect(await refusal(readAll(broken))).toEqual({
      statusCode: 400,
      detail:
        'The spreadsheet could not be read. Open it in Excel and save it again as an .xlsx workbook, or save it as CSV.',
    });
  });
});
