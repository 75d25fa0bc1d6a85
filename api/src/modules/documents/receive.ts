import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DOCUMENT_TYPES, DOCUMENT_TYPES_HINT, type DocumentType } from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import { fieldError, HttpError } from '../../http/errors.js';
import { cleanFileName, formError, requireMultipart } from '../../http/multipart.js';
import { claimedType, contentMatches, HEAD_BYTES } from './sniff.js';

export const TOO_LARGE = 'A document can be at most 25 MB.';

/** An uploaded file, whole in a temporary file, its type checked against its bytes. */
export interface ReceivedFile {
  /** The temporary file; the caller moves it into the store or removes it (`discard`). */
  path: string;
  fileName: string;
  contentType: DocumentType;
  size: number;
  sha256: string;
}

/** Removes what an upload left behind; nothing there is no error. */
export const discard = (file: { path: string } | undefined) =>
  file ? rm(file.path, { force: true }) : Promise.resolve();

/**
 * Passes the bytes through while hashing them, keeping the first few kilobytes and telling whether
 * the whole reads as UTF-8 text without a NUL: all a type check needs, without keeping the file.
 */
class Inspector extends Transform {
  readonly hash = createHash('sha256');
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  #head: Buffer[] = [];
  #headLength = 0;
  size = 0;
  isText = true;

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.#headLength < HEAD_BYTES) {
      this.#head.push(chunk.subarray(0, HEAD_BYTES - this.#headLength));
      this.#headLength = Math.min(HEAD_BYTES, this.#headLength + chunk.length);
    }
    if (this.isText) {
      try {
        if (chunk.includes(0)) this.isText = false;
        else this.#decoder.decode(chunk, { stream: true });
      } catch {
        this.isText = false;
      }
    }
    done(null, chunk);
  }

  override _flush(done: (error?: Error | null) => void) {
    if (this.isText) {
      try {
        this.#decoder.decode();
      } catch {
        this.isText = false;
      }
    }
    done();
  }

  get head() {
    return Buffer.concat(this.#head);
  }
}

const typeName = (type: DocumentType) => DOCUMENT_TYPES[type][0].slice(1).toUpperCase();

/**
 * Reads an upload form: its text fields, and its one file (`file`), streamed to a temporary file in
 * `incomingDir` while it is hashed, never held in memory whole. The file must be of an allowed type
 * whose bytes match its name (415), at most 25 MB (413), and not empty. Whatever goes wrong, no
 * temporary file is left behind.
 */
export async function receiveDocumentForm(
  request: FastifyRequest,
  incomingDir: string,
): Promise<{ fields: Record<string, string>; file: ReceivedFile }> {
  requireMultipart(request);
  const fields: Record<string, string> = {};
  let file: ReceivedFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) throw fieldError(part.fieldname, 'Send one file, named file.');
      const type = claimedType(part.filename, part.mimetype);
      if (!type) {
        part.file.resume();
        throw new HttpError(415, {
          detail: `Coverdesk cannot keep this type of file. ${DOCUMENT_TYPES_HINT}`,
        });
      }
      await mkdir(incomingDir, { recursive: true });
      const inspector = new Inspector();
      file = {
        path: path.join(incomingDir, randomUUID()),
        fileName: cleanFileName(part.filename, DOCUMENT_TYPES[type], 'document'),
        contentType: type,
        size: 0,
        sha256: '',
      };
      await pipeline(part.file, inspector, createWriteStream(file.path));
      if (part.file.truncated) throw new HttpError(413, { detail: TOO_LARGE });
      if (inspector.size === 0) throw fieldError('file', 'This file is empty.');
      file.size = inspector.size;
      file.sha256 = inspector.hash.digest('hex');
      const probe = { head: inspector.head, isText: inspector.isText, path: file.path, size: file.size };
      if (!(await contentMatches(type, probe))) {
        throw new HttpError(415, {
          detail: `This file is not a ${typeName(type)} file, whatever its name says. ${DOCUMENT_TYPES_HINT}`,
        });
      }
    }
  } catch (error) {
    await discard(file);
    throw formError(request, error, TOO_LARGE);
  }
  if (!file) throw fieldError('file', 'Choose a file to upload.');
  return { fields, file };
}
