import type { Worker } from 'node:worker_threads';
import { DateHintReader, IMPORT_ECHO_CHARS, IMPORT_SAMPLE_ROWS, MAX_IMPORT_ROWS } from '@coverdesk/contract';
import { HttpError } from '../../http/errors.js';
import { startWorker } from '../../jobs/worker-thread.js';
import { IMPORT_FILE_WORKER } from '../../paths.js';
import type { FileWorkerInput, FileWorkerMessage } from './file-worker.js';
import type { FileRow } from './read-file.js';

export type { FileRow } from './read-file.js';

/** A file's header and its rows, read as they are needed: a large file is never held as rows. */
export interface ImportRows {
  headers: string[];
  rows: AsyncIterable<FileRow>;
}

/**
 * What one reading of a file may take. The thread's heap is capped, so a file that needs more ends
 * its own reading with a message instead of taking the server's memory; two readings at a time keep
 * the readings of many agencies at once from adding up.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 32 };
const MAX_READINGS_AT_ONCE = 2;

const outOfMemory = () =>
  new HttpError(422, {
    detail: 'This file needs more memory to read than an import may use; split it or save it as CSV.',
  });

/** Readings waiting for a turn, first come first served. */
const waiting: (() => void)[] = [];
let reading = 0;

async function takeTurn() {
  if (reading >= MAX_READINGS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  reading += 1;
}

function endTurn() {
  reading -= 1;
  waiting.shift()?.();
}

/** Messages from a worker, taken one at a time in the order they came. */
class Inbox {
  private readonly messages: FileWorkerMessage[] = [];
  private onMessage: (() => void) | undefined;

  push(message: FileWorkerMessage) {
    this.messages.push(message);
    this.onMessage?.();
  }

  async next(): Promise<FileWorkerMessage> {
    while (this.messages.length === 0) await new Promise<void>((resolve) => (this.onMessage = resolve));
    return this.messages.shift() as FileWorkerMessage;
  }
}

/**
 * Reads a CSV or XLSX file in a worker thread and hands `consume` its header and its non-blank rows
 * as they are read, so neither the reading nor a file's size ever holds up the server's other
 * requests. A file past one of an import's bounds is refused with the HttpError that says which; one
 * without a header at once, one without rows or with more than `maxRows` when its rows are read
 * through. The thread ends with `consume`, whether it read every row or not.
 */
export async function readImportFile<T>(
  bytes: Buffer,
  consume: (file: ImportRows) => Promise<T>,
  maxRows = MAX_IMPORT_ROWS,
): Promise<T> {
  await takeTurn();
  // A copy the worker is given outright, rather than one more made to send it.
  const copy = new Uint8Array(bytes);
  let worker: Worker;
  try {
    worker = startWorker(IMPORT_FILE_WORKER, {
      workerData: { bytes: copy, maxRows } satisfies FileWorkerInput,
      transferList: [copy.buffer],
      resourceLimits: WORKER_LIMITS,
    });
  } catch (error) {
    endTurn();
    throw error;
  }
  const inbox = new Inbox();
  let ended = false;
  worker.on('message', (message: FileWorkerMessage) => inbox.push(message));
  worker.on('error', (error: Error & { code?: string }) => {
    const refusal =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? outOfMemory()
        : new HttpError(400, { detail: 'The file could not be read. Save it again as CSV or XLSX.' });
    inbox.push({ type: 'refused', statusCode: refusal.statusCode, body: refusal.body });
  });
  worker.on('exit', () => {
    if (!ended) endTurn();
    ended = true;
  });

  const refused = (message: FileWorkerMessage) =>
    message.type === 'refused'
      ? new HttpError(message.statusCode, message.body)
      : new Error(`the file worker sent ${message.type} out of turn`);

  async function* rows(): AsyncGenerator<FileRow> {
    // One batch is read ahead while the one before is used.
    worker.postMessage('more');
    for (;;) {
      const message = await inbox.next();
      if (message.type === 'end') return;
      if (message.type !== 'rows') throw refused(message);
      worker.postMessage('more');
      yield* message.rows;
    }
  }

  try {
    const first = await inbox.next();
    if (first.type !== 'header') throw refused(first);
    return await consume({ headers: first.headers, rows: rows() });
  } finally {
    await worker.terminate();
  }
}

/** A cell as the answers echo it: never longer than a screen can show. */
export const echoed = (cell: string) =>
  cell.length > IMPORT_ECHO_CHARS ? `${cell.slice(0, IMPORT_ECHO_CHARS - 1)}…` : cell;

/**
 * What an upload keeps of its file: the header, the first rows to map the columns by, the count, and
 * what each column's dates say of their order.
 */
export function surveyImportFile(bytes: Buffer, maxRows = MAX_IMPORT_ROWS) {
  return readImportFile(
    bytes,
    async ({ headers, rows }) => {
      const sample: string[][] = [];
      const dates = new DateHintReader(headers.length);
      let totalRows = 0;
      for await (const { cells } of rows) {
        if (sample.length < IMPORT_SAMPLE_ROWS) sample.push(cells.map(echoed));
        dates.read(cells);
        totalRows += 1;
      }
      const dateHints = dates.hints().map((hint) => hint && { ...hint, example: echoed(hint.example) });
      return { headers: headers.map(echoed), sample, totalRows, dateHints };
    },
    maxRows,
  );
}
