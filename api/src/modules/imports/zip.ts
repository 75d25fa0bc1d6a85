import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

// The parts of a zip archive (an XLSX file is one), read with yauzl from the bytes already in memory.
// yauzl checks each part's name and, as it inflates, that no part expands past the size its header
// declares; each chunk is also counted here against the reading's own budgets, so a part that expands
// past its bound is stopped there, whatever its header claims.

export type ZipPart = Entry;

/** Why an archive cannot be read; the reader of the file says so in the broker's words. */
export class ZipProblem extends Error {}

/** More parts than any spreadsheet has; an archive of more is not one to read. */
const MAX_PARTS = 10_000;

const openBuffer = promisify<Buffer, yauzl.Options, ZipFile>(yauzl.fromBuffer);

/** An archive open for reading, and its parts by name as its central directory lists them. */
export async function openArchive(bytes: Buffer): Promise<{ zip: ZipFile; parts: Map<string, ZipPart> }> {
  // Kept open once its directory is read (autoClose), for the parts are read after it.
  const zip = await openBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, autoClose: false });
  if (zip.entryCount > MAX_PARTS) throw new ZipProblem('too many parts');
  const parts = new Map<string, ZipPart>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      parts.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', resolve);
    zip.once('error', reject);
    zip.readEntry();
  });
  return { zip, parts };
}

/** The bytes a reading may still expand to; `take` throws `overflow()` once they are spent. */
export class ExpansionBudget {
  constructor(
    private left: number,
    private readonly overflow: () => Error,
  ) {}

  take(bytes: number) {
    this.left -= bytes;
    if (this.left < 0) throw this.overflow();
  }
}

/** A part's bytes as they are inflated, each chunk counted against the budgets given. */
export async function* partBytes(
  zip: ZipFile,
  part: ZipPart,
  budgets: ExpansionBudget[],
): AsyncGenerator<Buffer> {
  if (part.isEncrypted()) throw new ZipProblem('encrypted');
  const stream = await promisify<Entry, Readable>(zip.openReadStream.bind(zip))(part);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (const budget of budgets) budget.take(chunk.length);
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}
