import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { takeUploadSlot } from './body-pace.js';
import { HttpError } from './errors.js';

/** Room for the text fields and the multipart framing around a file at its limit. */
const FRAMING_BYTES = 64 * 1024;

/**
 * Lets a plugin's routes read multipart/form-data: one file up to `fileSize`, a few text fields.
 * The app's JSON limit (1 MB) does not apply to these forms; a form declaring more than a file's
 * worth is refused with 413 before any of it is read (after authentication, which runs on
 * onRequest), and one sent without a length is cut off at the file's limit while it is read. Each
 * form takes one of the uploads in flight its address and its agency may have (429 past them) until
 * it is answered.
 */
export async function acceptFileForms(
  app: FastifyInstance,
  { fileSize, fields, tooLarge }: { fileSize: number; fields: number; tooLarge: string },
): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize, files: 1, fields, fieldSize: FRAMING_BYTES, parts: fields + 1 },
  });
  app.addHook('preParsing', async (request, reply) => {
    if (Number(request.headers['content-length'] ?? 0) > fileSize + FRAMING_BYTES) {
      throw new HttpError(413, { detail: tooLarge });
    }
    // Before the form's parser has run, so by its declared type.
    if (/^multipart\/form-data/i.test(request.headers['content-type'] ?? '')) {
      takeUploadSlot(request, reply);
    }
  });
}

/** busboy's own errors, which carry no status: a form cut short, or one without its boundary. */
const MALFORMED_FORM =
  /^(Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|Multipart: Boundary not found)$/;

/**
 * What an error met while reading a form answers: 413 for a file past its size, 400 for a form cut
 * short or malformed (`--x` without its closing `--x--`), else the error as it is.
 */
export function formError(request: FastifyRequest, error: unknown, tooLarge: string): unknown {
  if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) {
    return new HttpError(413, { detail: tooLarge });
  }
  if (error instanceof Error && !('statusCode' in error) && MALFORMED_FORM.test(error.message)) {
    return new HttpError(400, { detail: 'The form ends before its end, or has no boundary: send it again.' });
  }
  return error;
}

/** 415 for a request that is not a multipart form. */
export function requireMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) throw new HttpError(415, { detail: 'Send the form as multipart/form-data.' });
}

const MAX_NAME_LENGTH = 150;

/**
 * A name safe to store and to send back in a header: no path, no control or format characters (a
 * right-to-left override can make a name ending `.exe` read as `.pdf`), not too long, and always an
 * extension of the type the file was checked as, whatever the client named it: a text file named
 * `page.html` is offered as `page.txt`, never as a page a browser would run. `extensions` are the
 * type's own, the first the one given when the name has none of them.
 */
export function cleanFileName(name: string, extensions: readonly string[], fallback: string): string {
  // Browsers send a line break or a quote in a form's file name as %0A, %0D or %22 (the HTML
  // standard's escapes): they go with the characters they stand for, or the name would keep them
  // escaped and be escaped again on the way out (`%250D`).
  const unescaped = name.replace(/%(0A|0D|22)/gi, '');
  const base = (unescaped.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}"]/gu, '').trim();
  const own = base.match(/\.[^.]*$/)?.[0]?.toLowerCase() ?? '';
  const extension = extensions.includes(own) ? own : (extensions[0] ?? '');
  const stem = base.replace(/\.[^.]*$/, '').trim();
  const kept = Array.from(stem)
    .slice(0, MAX_NAME_LENGTH - extension.length)
    .join('')
    .trim();
  return `${kept || fallback}${extension}`;
}

/**
 * The headers of a stored file sent back: its checked type, never sniffed into another, never kept
 * by a cache, and offered as a download unless `inline` (an image or PDF the page shows).
 */
export function fileHeaders(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; inline?: boolean },
): FastifyReply {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const type = file.contentType;
  return reply
    .type(type.startsWith('text/') ? `${type}; charset=utf-8` : type)
    .header(
      'content-disposition',
      `${file.inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
}
