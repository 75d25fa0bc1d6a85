import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { repeated, workbookOf } from '../../../test/workbook-files.js';

// The files an abuse probe sent to take the server down for every agency: workbooks that expand far
// past what they weigh, a CSV of one 49 MB cell, a CSV of a million columns (parse.test.ts has the
// rest of the bounds). Each is refused with a sentence a
// broker understands while the server keeps answering others at once, in bounded memory.

let t: TestApp;
let access: string;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const files: Record<string, { bytes: Buffer; type: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  access = (await signedInAgency(t.app)).access;
  // Built before anything is watched: deflating them takes this process's own time.
  files['shared strings of 100 MB'] = {
    bytes: await workbookOf({
      sharedStrings: repeated(100_000, () => `<si><t>${'x'.repeat(1_000)}</t></si>`),
      sheetData: ['<row r="1"><c t="s"><v>0</v></c></row>'],
    }),
    type: XLSX,
  };
  files['a sheet of 220 MB'] = {
    bytes: await workbookOf({
      sheetData: repeated(
        110_000,
        (index) => `<row r="${index + 1}"><c t="inlineStr"><is><t>${'x'.repeat(2_000)}</t></is></c></row>`,
      ),
    }),
    type: XLSX,
  };
  files['one quoted cell of 49 MB'] = {
    bytes: Buffer.from(`Name,Notes\nDana,"${'n'.repeat(49 * 1024 * 1024)}"\n`),
    type: 'text/csv',
  };
  files['a million columns in 5 MB'] = {
    bytes: Buffer.from(`${'Name,'.repeat(1_000_000)}Notes\nDana\n`),
    type: 'text/csv',
  };
}, 120_000);
afterAll(() => t.close());

/** Runs `work` while the health check is asked every 50 ms: its slowest answer, and the highest RSS. */
async function watched<T>(work: () => Promise<T>) {
  let slowestHealth = 0;
  let peakRss = process.memoryUsage.rss();
  let running = true;
  const statuses = new Set<number>();
  const watcher = (async () => {
    while (running) {
      const started = performance.now();
      const health = await t.app.inject({ method: 'GET', url: '/api/health/' });
      statuses.add(health.statusCode);
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      await sleep(50);
    }
  })();
  try {
    return { result: await work(), slowestHealth: () => slowestHealth, peakRss: () => peakRss, statuses };
  } finally {
    running = false;
    await watcher;
  }
}

const upload = (file: { bytes: Buffer; type: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/imports/?kind=customers&file_name=book',
    headers: { ...bearer(access), 'content-type': file.type },
    payload: file.bytes,
  });

describe('files made to take the server down', () => {
  it.each([
    ['shared strings of 100 MB', 422, /^This spreadsheet holds more text than an import reads/],
    [
      'a sheet of 220 MB',
      413,
      /^This file expands to more than 200 MB of data; split it or save it as CSV\.$/,
    ],
    ['one quoted cell of 49 MB', 422, /^Row 2 holds a row of more than 1 MB of text\./],
    ['a million columns in 5 MB', 422, /^Row 1 holds a row of more than 1 MB of text\./],
  ])('refuses %s while the server answers within a second', async (name, status, detail) => {
    const file = files[name];
    if (!file) throw new Error(`no file named ${name}`);
    const before = process.memoryUsage.rss();
    const { result: response, slowestHealth, peakRss, statuses } = await watched(() => upload(file));

    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toMatch(detail);
    // The answer names the problem; it never carries the file's content back.
    expect(response.body.length).toBeLessThan(500);
    expect([...statuses]).toEqual([200]);
    expect(slowestHealth()).toBeLessThan(1_000);
    // What reading the file added to the process: the upload, its copy for the reading thread, and
    // that thread's capped heap. The server's own figures are in bench/README.md.
    expect(peakRss() - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('reads the next file as usual once a bomb has been refused', async () => {
    const response = await upload({
      bytes: Buffer.from('First name,Last name\nDana,Levi\n'),
      type: 'text/csv',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ total_rows: 1, sample: [['Dana', 'Levi']] });
  });
});
