import { parentPort, workerData } from 'node:worker_threads';
import { HttpError } from '../../http/errors.js';
import { type FileRow, readFile } from './read-file.js';

// The worker thread that reads an uploaded file (started by parse.ts). It sends the header, then the
// rows a batch at a time, each batch only once the server has asked for it, so no more than two
// batches are ever on their way; a bound crossed is sent as the answer the upload should give.

export interface FileWorkerInput {
  bytes: Uint8Array;
  maxRows: number;
}

export type FileWorkerMessage =
  | { type: 'header'; headers: string[] }
  | { type: 'rows'; rows: FileRow[] }
  | { type: 'end' }
  | { type: 'refused'; statusCode: number; body: Record<string, unknown> };

const ROWS_PER_MESSAGE = 1_000;

const port = parentPort;
if (!port) throw new Error('file-worker.ts runs as a worker thread');
const { bytes, maxRows } = workerData as FileWorkerInput;

let asked = 0;
let onAsked: (() => void) | undefined;
port.on('message', () => {
  asked += 1;
  onAsked?.();
});

async function sendWhenAsked(message: FileWorkerMessage) {
  while (asked === 0) await new Promise<void>((resolve) => (onAsked = resolve));
  asked -= 1;
  port?.postMessage(message);
}

try {
  const file = await readFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxRows);
  port.postMessage({ type: 'header', headers: file.headers } satisfies FileWorkerMessage);
  let batch: FileRow[] = [];
  for await (const row of file.rows) {
    batch.push(row);
    if (batch.length === ROWS_PER_MESSAGE) {
      await sendWhenAsked({ type: 'rows', rows: batch });
      batch = [];
    }
  }
  if (batch.length > 0) await sendWhenAsked({ type: 'rows', rows: batch });
  port.postMessage({ type: 'end' } satisfies FileWorkerMessage);
} catch (error) {
  const refusal =
    error instanceof HttpError
      ? error
      : new HttpError(400, { detail: 'The file could not be read. Save it again as CSV or XLSX.' });
  port.postMessage({
    type: 'refused',
    statusCode: refusal.statusCode,
    body: refusal.body,
  } satisfies FileWorkerMessage);
}
port.close();
