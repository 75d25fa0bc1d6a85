import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type FilePart, multipartForm } from './multipart-form.js';
import { bearer } from './test-app.js';

export type { FilePart };

/** A document upload's form: the record and category fields, then the file. */
export const documentForm = (fields: Record<string, string>, file?: FilePart) =>
  multipartForm(fields, file && { field: 'file', ...file });

export const uploadDocument = (
  app: FastifyInstance,
  token: string,
  fields: Record<string, string>,
  file?: FilePart,
) => {
  const form = documentForm(fields, file);
  return app.inject({
    method: 'POST',
    url: '/api/documents/',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(token) },
  });
};

/** A ZIP archive of stored (uncompressed) entries: enough to be a DOCX or an XLSX to a type check. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(text);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/** One small file of each type a document may be, named as a broker's would be. */
export const SAMPLES = {
  pdf: { name: 'schedule.pdf', content: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') },
  png: {
    name: 'photo.png',
    content: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]),
  },
  jpeg: {
    name: 'dent.jpeg',
    content: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]),
  },
  heic: {
    name: 'IMG_0042.HEIC',
    content: Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'),
      randomBytes(64),
    ]),
  },
  webp: {
    name: 'scan.webp',
    content: Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([64, 0, 0, 0]),
      Buffer.from('WEBPVP8 '),
      randomBytes(56),
    ]),
  },
  txt: {
    name: 'notes.txt',
    content: Buffer.from('Called the insurer — they will send the adjuster on Monday.\n'),
  },
  csv: { name: 'drivers.csv', content: Buffer.from('name,licence\nDana Levi,1234567\n') },
  docx: {
    name: 'proposal.docx',
    content: zipOf({ '[Content_Types].xml': CONTENT_TYPES, 'word/document.xml': '<w:document/>' }),
  },
  xlsx: {
    name: 'fleet.xlsx',
    content: zipOf({ '[Content_Types].xml': CONTENT_TYPES, 'xl/workbook.xml': '<workbook/>' }),
  },
  eml: {
    name: 'insurer-reply.eml',
    content: Buffer.from(
      'From: claims@harel.example\r\nTo: noa@peretz.example\r\nSubject: Claim 42\r\nDate: Mon, 2 Nov 2026 10:00:00 +0200\r\n\r\nApproved.\r\n',
    ),
  },
} satisfies Record<string, FilePart>;
