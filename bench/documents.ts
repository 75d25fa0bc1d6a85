// Documents at their size limit: one 25 MB PDF uploaded onto a customer and downloaded again through
// the HTTP API, on a fresh embedded database with files on disk, timing each and reading the
// server's resident memory before and at its peak during each. The README lists the figures.

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_DOCUMENT_BYTES } from '@coverdesk/contract';
import { readMemory } from './machine.js';
import { REPO_ROOT, startServer, stopServer } from './server.js';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'api/dist/main.js' },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);

/** Resets the peak the kernel keeps (VmHWM), so each phase's peak is its own. */
function resetPeak(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the peak is then the process's own since it started.
  }
}

async function json<T>(response: Promise<Response>, what: string): Promise<T> {
  const answer = await response;
  if (!answer.ok) throw new Error(`${what}: HTTP ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'coverdesk-documents-bench-'));
const server = await startServer(path.resolve(REPO_ROOT, values.server), {
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  DATABASE_POOL_SIZE: '10',
  LOG_LEVEL: 'warn',
  logFile: path.join(dataDir, 'server.log'),
});
try {
  const session = await json<{ access: string }>(
    fetch(new URL('/api/accounts/register/', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.com',
        password: 'quiet harbour lighthouse',
        first_name: 'Noa',
        last_name: 'Peretz',
        company_name: 'Peretz Insurance',
      }),
    }),
    'register',
  );
  const headers = { authorization: `Bearer ${session.access}` };
  const customer = await json<{ id: string }>(
    fetch(new URL('/api/customers/', server.url), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Dana', last_name: 'Levi' }),
    }),
    'customer',
  );
  const idle = readMemory(server.pid);
  console.log(`server idle: ${idle?.rssMiB} MiB RSS`);
  for (let round = 1; round <= rounds; round++) {
    // A PDF header, then random bytes (nothing compresses), to the byte limit; a new file each round.
    const content = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(MAX_DOCUMENT_BYTES - 9)]);
    const form = new FormData();
    form.append('customer_id', customer.id);
    form.append('file', new Blob([content], { type: 'application/pdf' }), `scan-${round}.pdf`);

    resetPeak(server.pid);
    const before = readMemory(server.pid);
    let started = performance.now();
    const document = await json<{ id: string; sha256: string }>(
      fetch(new URL('/api/documents/', server.url), { method: 'POST', headers, body: form }),
      'upload',
    );
    const uploadMs = performance.now() - started;
    const afterUpload = readMemory(server.pid);

    resetPeak(server.pid);
    started = performance.now();
    const download = await fetch(new URL(`/api/documents/${document.id}/download/`, server.url), { headers });
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    const downloadMs = performance.now() - started;
    const afterDownload = readMemory(server.pid);
    if (hash.digest('hex') !== document.sha256 || bytes !== content.length)
      throw new Error('the download is not the file uploaded');
    console.log(
      `round ${round}: upload ${uploadMs.toFixed(0)} ms (RSS ${before?.rssMiB} -> peak ${afterUpload?.peakRssMiB} MiB), ` +
        `download ${downloadMs.toFixed(0)} ms (peak ${afterDownload?.peakRssMiB} MiB, after ${afterDownload?.rssMiB} MiB)`,
    );
  }
} finally {
  await stopServer(server.process);
  rmSync(dataDir, { recursive: true, force: true });
}
