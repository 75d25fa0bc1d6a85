import { open } from 'node:fs/promises';
import { DOCUMENT_TYPES, type DocumentType } from '@coverdesk/contract';

/** What was learnt of a file while it streamed in: its first bytes, and whether it reads as text. */
export interface ContentProbe {
  /** The first `HEAD_BYTES` bytes. */
  head: Buffer;
  /** Valid UTF-8 throughout, without a NUL byte. */
  isText: boolean;
  /** Where the whole file lies, for what only its end tells (a ZIP's list of entries). */
  path: string;
  size: number;
}

export const HEAD_BYTES = 4096;

const startsWith = (head: Buffer, bytes: Buffer | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  return head.subarray(at, at + expected.length).equals(expected);
};

/** The ISO base media brands of HEIC and HEIF pictures (what an iPhone's camera writes). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

function isHeif(head: Buffer): boolean {
  if (!startsWith(head, 'ftyp', 4)) return false;
  const boxSize = Math.min(head.readUInt32BE(0), head.length);
  // The major brand, then the compatible ones after the minor version.
  for (let at = 8; at + 4 <= boxSize; at += at === 8 ? 8 : 4) {
    if (HEIF_BRANDS.has(head.toString('latin1', at, at + 4))) return true;
  }
  return false;
}

/**
 * An email as saved by a mail program: header lines (`Name: value`, folded lines starting with a
 * space) up to the first empty line, among them at least one that every message has.
 */
function isEmail(head: Buffer): boolean {
  const lines = head.toString('utf8').split(/\r?\n/);
  const names: string[] = [];
  for (const line of lines) {
    if (line === '') break;
    if (/^[ \t]/.test(line) && names.length > 0) continue;
    const header = /^([!-9;-~]+):/.exec(line);
    if (!header?.[1]) return false;
    names.push(header[1].toLowerCase());
  }
  return names.some((name) => ['from', 'date', 'subject', 'message-id', 'received'].includes(name));
}

const ZIP_LOCAL = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_END = 0x06054b50;
const ZIP_ENTRY = 0x02014b50;
/** The end record, and the longest comment that may follow it. */
const ZIP_TAIL_BYTES = 22 + 0xffff;
/** An Office file's list of entries is a few kilobytes; a longer one is not worth reading. */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;

/** The names of a ZIP file's entries, from its central directory at the end; none if it has none. */
export async function zipEntryNames(path: string, size: number): Promise<string[]> {
  const file = await open(path, 'r');
  try {
    const tailLength = Math.min(size, ZIP_TAIL_BYTES);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let at = tailLength - 22; at >= 0; at--) {
      if (tail.readUInt32LE(at) === ZIP_END) {
        end = at;
        break;
      }
    }
    if (end < 0) return [];
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directorySize > MAX_DIRECTORY_BYTES || directoryOffset + directorySize > size) return [];
    const directory = Buffer.alloc(directorySize);
    await file.read(directory, 0, directorySize, directoryOffset);
    const names: string[] = [];
    for (let at = 0; at + 46 <= directory.length && directory.readUInt32LE(at) === ZIP_ENTRY; ) {
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      names.push(directory.toString('utf8', at + 46, at + 46 + nameLength));
      at += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  } finally {
    await file.close();
  }
}

/** An Office Open XML package whose parts live under `folder` (`word/` or `xl/`). */
async function isOfficeFile(probe: ContentProbe, folder: string): Promise<boolean> {
  if (!startsWith(probe.head, ZIP_LOCAL)) return false;
  const names = await zipEntryNames(probe.path, probe.size);
  return names.includes('[Content_Types].xml') && names.some((name) => name.startsWith(folder));
}

const CHECKS: Record<DocumentType, (probe: ContentProbe) => boolean | Promise<boolean>> = {
  'application/pdf': ({ head }) => startsWith(head, '%PDF-'),
  'image/png': ({ head }) => startsWith(head, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': ({ head }) => startsWith(head, Buffer.from([0xff, 0xd8, 0xff])),
  'image/heic': ({ head }) => isHeif(head),
  'image/webp': ({ head }) => startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8),
  'text/plain': ({ isText }) => isText,
  'text/csv': ({ isText }) => isText,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': (probe) =>
    isOfficeFile(probe, 'word/'),
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': (probe) => isOfficeFile(probe, 'xl/'),
  'message/rfc822': ({ head, isText }) => isText && isEmail(head),
};

/** Whether the bytes are of the type the file's name claims. */
export const contentMatches = (type: DocumentType, probe: ContentProbe): Promise<boolean> =>
  Promise.resolve(CHECKS[type](probe));

const BY_EXTENSION = new Map<string, DocumentType>(
  Object.entries(DOCUMENT_TYPES).flatMap(([type, extensions]) =>
    extensions.map((extension) => [extension, type as DocumentType] as const),
  ),
);

/**
 * The type a file claims to be: its name's extension, or, for a name without a known one, the type
 * the browser sent. Some browsers send a CSV file as Excel's type or as plain text, and most send
 * an email as something else again, so the name comes first.
 */
export function claimedType(fileName: string, mimetype: string): DocumentType | undefined {
  const extension = /\.[^.]*$/.exec(fileName)?.[0]?.toLowerCase() ?? '';
  const byName = BY_EXTENSION.get(extension);
  if (byName) return byName;
  const sent = mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
  return Object.hasOwn(DOCUMENT_TYPES, sent) ? (sent as DocumentType) : undefined;
}
