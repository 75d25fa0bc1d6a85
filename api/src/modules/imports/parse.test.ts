import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseImportFile } from './parse.js';

describe('reading a delimited file', () => {
  it('keeps a character whose bytes fall either side of a slice read separately', async () => {
    const header = 'Name;Premium\n';
    // The euro sign is three bytes in UTF-8; this puts its first byte last in the first 64 KiB slice.
    const long = `${'a'.repeat(64 * 1024 - 1 - header.length)}€`;
    const names = [long, 'Zoë Ødegård', 'Łukasz Müller'];
    const file = Buffer.from(`${header}${names.map((name) => `${name};1200`).join('\n')}\n`, 'utf8');
    expect(file.subarray(64 * 1024 - 1, 64 * 1024 + 2).toString('utf8')).toBe('€');

    const parsed = await parseImportFile(file);

    expect(parsed.headers).toEqual(['Name', 'Premium']);
    expect(parsed.rows.map((row) => row.cells[0])).toEqual(names);
  });

  it('reads Windows-1252 text, where the same characters are one byte each', async () => {
    const parsed = await parseImportFile(iconv.encode('Name,City\r\n"Müller, Zoë",Málaga €\r\n', 'win1252'));

    expect(parsed.rows).toEqual([{ row: 2, cells: ['Müller, Zoë', 'Málaga €'] }]);
  });

  it('refuses a file with zero bytes in it, which no spreadsheet writes as text', async () => {
    await expect(parseImportFile(Buffer.from([0x41, 0x00, 0x42, 0x0a]))).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});
