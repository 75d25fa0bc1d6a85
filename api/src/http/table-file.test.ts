import { describe, expect, it } from 'vitest';
import { csvTable, xlsxTable } from '../../test/export-file.js';
import { type FileColumn, tableFile } from './table-file.js';

type Row = { name: string; premium: string | null; ends: string };
const COLUMNS: FileColumn<Row>[] = [
  { field: 'name', heading: 'Name' },
  { field: 'premium', heading: 'Premium', kind: 'money' },
  { field: 'ends', heading: 'Ends', kind: 'date' },
];

/** `count` batches of 500 rows, noting how many the file has asked for so far. */
function batches(count: number) {
  const read = { batches: 0 };
  async function* rows() {
    for (let batch = 0; batch < count; batch += 1) {
      read.batches += 1;
      yield Array.from({ length: 500 }, (_, index) => ({
        name: `Customer ${batch * 500 + index}`,
        premium: `${batch * 500 + index}.05`,
        ends: '2026-12-31',
      }));
    }
  }
  return { read, rows: rows() };
}

async function collect(format: 'csv' | 'xlsx', count: number) {
  const { read, rows } = batches(count);
  const chunks: Buffer[] = [];
  let readAtFirstChunk = 0;
  for await (const chunk of tableFile(format, COLUMNS, rows, 'Customers')) {
    if (chunks.length === 0) readAtFirstChunk = read.batches;
    chunks.push(Buffer.from(chunk));
  }
  return { file: Buffer.concat(chunks), readAtFirstChunk, chunks: chunks.length };
}

describe('list files', () => {
  it('streams a large XLSX as it reads, and the workbook holds every row typed', async () => {
    const { file, readAtFirstChunk, chunks } = await collect('xlsx', 40);
    // Bytes leave long before the last batch is read: the file is never held whole.
    expect(readAtFirstChunk).toBeLessThan(40);
    expect(chunks).toBeGreaterThan(2);
    const table = await xlsxTable(file);
    expect(table).toHaveLength(20_001);
    expect(table[0]).toEqual(['Name', 'Premium', 'Ends']);
    expect(table[20_000]).toEqual(['Customer 19999', 19999.05, new Date('2026-12-31T00:00:00Z')]);
  });

  it('writes CSV a batch at a time, an empty money cell as nothing', async () => {
    const empty = async function* () {
      yield [{ name: 'No premium', premium: null, ends: '2026-01-01' }];
    };
    const chunks: string[] = [];
    for await (const chunk of tableFile('csv', COLUMNS, empty(), 'Customers')) chunks.push(String(chunk));
    expect(csvTable(chunks.join(''))).toEqual([
      ['Name', 'Premium', 'Ends'],
      ['No premium', '', '2026-01-01'],
    ]);
    const { readAtFirstChunk } = await collect('csv', 3);
    expect(readAtFirstChunk).toBe(0);
  });

  it('writes an empty list as its headings alone', async () => {
    const none = async function* (): AsyncGenerator<Row[]> {};
    const chunks: Buffer[] = [];
    for await (const chunk of tableFile('xlsx', COLUMNS, none(), 'Customers'))
      chunks.push(Buffer.from(chunk));
    expect(await xlsxTable(Buffer.concat(chunks))).toEqual([['Name', 'Premium', 'Ends']]);
  });
});
