import {
  ATTACHMENT_HINT,
  ATTACHMENT_TYPES,
  type AttachmentType,
  MAX_ATTACHMENT_BYTES,
} from '@coverdesk/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fieldError, parseWith } from '../../http/errors.js';
import {
  acceptFileForms,
  cleanFileName,
  fileHeaders,
  formError,
  requireMultipart,
} from '../../http/multipart.js';

/** A file sent with a ticket or a reply, checked. */
export interface Upload {
  fileName: string;
  contentType: AttachmentType;
  content: Buffer;
}

const TOO_LARGE = 'An attachment can be at most 5 MB.';

/** The first bytes every file of a binary type starts with; text types are checked for NUL bytes. */
const SIGNATURES: Partial<Record<AttachmentType, Buffer>> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'application/pdf': Buffer.from('%PDF-'),
};

const isAttachmentType = (type: string): type is AttachmentType => Object.hasOwn(ATTACHMENT_TYPES, type);

/** Some browsers send a CSV file as Excel's type or as plain text; the extension decides. */
function declaredType(mimetype: string, fileName: string): string {
  if (/\.csv$/i.test(fileName) && ['application/vnd.ms-excel', 'text/plain'].includes(mimetype))
    return 'text/csv';
  return mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
}

function checkedUpload(fileName: string, mimetype: string, content: Buffer): Upload {
  const type = declaredType(mimetype, fileName);
  if (!isAttachmentType(type))
    throw fieldError('attachment', `This type of file cannot be attached. ${ATTACHMENT_HINT}`);
  const signature = SIGNATURES[type];
  const looksRight = signature
    ? content.subarray(0, signature.length).equals(signature)
    : !content.includes(0);
  if (!looksRight)
    throw fieldError('attachment', `This file is not the type its name says. ${ATTACHMENT_HINT}`);
  return {
    fileName: cleanFileName(fileName, [ATTACHMENT_TYPES[type]], 'attachment'),
    contentType: type,
    content,
  };
}

/** Lets a plugin's routes read a ticket's form: one file (`attachment`) up to 5 MB, a few text fields. */
export const acceptTicketForms = (app: FastifyInstance) =>
  acceptFileForms(app, { fileSize: MAX_ATTACHMENT_BYTES, fields: 10, tooLarge: TOO_LARGE });

/**
 * A ticket form's text fields, checked against `schema` with the usual field messages, and its
 * attachment, if one was chosen: an allowed type whose content matches it, at most 5 MB (413).
 */
export async function readTicketForm<Schema extends z.ZodType>(
  request: FastifyRequest,
  schema: Schema,
): Promise<{ fields: z.output<Schema>; attachment: Upload | null }> {
  requireMultipart(request);
  const fields: Record<string, string> = {};
  let attachment: Upload | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'attachment')
        throw fieldError(part.fieldname, 'Only one file, named attachment.');
      const content = await part.toBuffer();
      // A file input left empty still sends a part without a name or bytes.
      if (content.length === 0 && !part.filename) continue;
      if (content.length === 0) throw fieldError('attachment', 'This file is empty.');
      attachment = checkedUpload(part.filename, part.mimetype, content);
    }
  } catch (error) {
    throw formError(request, error, TOO_LARGE);
  }
  return { fields: parseWith(schema, fields), attachment };
}

/** Sends a stored attachment as a download: never shown inline, never sniffed into another type. */
export function sendAttachment(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; content: Buffer },
) {
  const contentType = isAttachmentType(file.contentType) ? file.contentType : 'application/octet-stream';
  return fileHeaders(reply, { fileName: file.fileName, contentType }).send(file.content);
}
