import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

// The parts of a zip archive (an XLSX file is one), read from the bytes already in memory. A part is
// inflated as a stream and counted as it comes out: the sizes an archive declares are not trusted, so
// a part that expands past its bound is stopped there, whatever its header claims.

export interface ZipPart {
  name: string;
  method: number;
  encrypted: boolean;
  dataStart: number;
  compressedSize: number;
}

/** Why an archive cannot be read; the reader of the file says so in the broker's words. */
export class ZipProblem extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** More parts than any spreadsheet has; an archive of more is not one to read. */
const MAX_PARTS = 10_000;

function endOfDirectory(bytes: Buffer): number {
  // The record is 22 bytes, followed by a comment of up to 65,535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new ZipProblem('no central directory');
}

/** The archive's parts by name, as its central directory lists them. */
export function zipParts(bytes: Buffer): Map<string, ZipPart> {
  const end = endOfDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new ZipProblem('a ZIP64 archive');
  if (count > MAX_PARTS) throw new ZipProblem('too many parts');
  const parts = new Map<string, ZipPart>();
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new ZipProblem('a broken central directory');
    }
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const local = bytes.readUInt32LE(at + 42);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) {
      throw new ZipProblem('a part outside the archive');
    }
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const compressedSize = bytes.readUInt32LE(at + 20);
    if (dataStart + compressedSize > bytes.length) throw new ZipProblem('a part cut short');
    parts.set(name, {
      name,
      method: bytes.readUInt16LE(at + 10),
      encrypted: (bytes.readUInt16LE(at + 8) & 1) === 1,
      dataStart,
      compressedSize,
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return parts;
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
  bytes: Buffer,
  part: ZipPart,
  budgets: ExpansionBudget[],
): AsyncGenerator<Buffer> {
  if (part.encrypted) throw new ZipProblem('encrypted');
  const data = bytes.subarray(part.dataStart, part.dataStart + part.compressedSize);
  if (part.method !== STORED && part.method !== DEFLATED) throw new ZipProblem('an unknown compression');
  const chunks = part.method === STORED ? [data] : Readable.from([data]).pipe(createInflateRaw());
  try {
    for await (const chunk of chunks) {
      for (const budget of budgets) budget.take(chunk.length);
      yield chunk;
    }
  } finally {
    if (chunks instanceof Readable) chunks.destroy();
  }
}
