import { Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';

// XLSX files written part by part, for what a spreadsheet program would not write: workbooks that
// expand far past what they weigh, and cells in every form the format allows. A part's text is given
// as pieces, deflated as a stream, so a part that expands to hundreds of megabytes is never held whole.

export interface WorkbookPart {
  name: string;
  pieces: Iterable<string>;
}

async function deflated(pieces: Iterable<string>) {
  let checksum = 0;
  let size = 0;
  // Pieces are joined into slices of about 1 MB: deflating a million tiny writes costs more than the bytes.
  const counted = (function* () {
    let slice: string[] = [];
    let length = 0;
    const take = () => {
      const bytes = Buffer.from(slice.join(''), 'utf8');
      checksum = crc32(bytes, checksum);
      size += bytes.length;
      slice = [];
      length = 0;
      return bytes;
    };
    for (const piece of pieces) {
      slice.push(piece);
      length += piece.length;
      if (length >= 1024 * 1024) yield take();
    }
    yield take();
  })();
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(counted).pipe(createDeflateRaw({ level: 1 }))) chunks.push(chunk);
  return { data: Buffer.concat(chunks), checksum, size };
}

/** A zip archive of the parts, each deflated, with the sizes and checksums it truly has. */
export async function zipOf(parts: WorkbookPart[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const { data, checksum, size } = await deflated(part.pieces);
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(checksum >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Math.min(size, 0xfffffffe), 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(checksum >>> 0, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(Math.min(size, 0xfffffffe), 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    directory.push(entry, name);
    offset += local.length + name.length + data.length;
  }
  const directorySize = directory.reduce((sum, piece) => sum + piece.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A workbook of one sheet, `sheetData` being the sheet's rows as XML (pieces of it), with the shared
 * strings and the cell styles' number formats given.
 */
export function workbookOf(options: {
  sheetData: Iterable<string>;
  sharedStrings?: Iterable<string>;
  cellFormats?: number[];
  customFormats?: Record<number, string>;
}): Promise<Buffer> {
  const formats = Object.entries(options.customFormats ?? {})
    .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code}"/>`)
    .join('');
  const styles = (options.cellFormats ?? [0]).map((format) => `<xf numFmtId="${format}"/>`).join('');
  const parts: WorkbookPart[] = [
    {
      name: '_rels/.rels',
      pieces: [
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ],
    },
    {
      name: 'xl/workbook.xml',
      pieces: [
        `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Book" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ],
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      pieces: [
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ],
    },
    {
      name: 'xl/styles.xml',
      pieces: [
        `<styleSheet xmlns="${MAIN}"><numFmts>${formats}</numFmts><cellXfs>${styles}</cellXfs></styleSheet>`,
      ],
    },
    {
      name: 'xl/sharedStrings.xml',
      pieces: (function* () {
        yield `<sst xmlns="${MAIN}">`;
        yield* options.sharedStrings ?? [];
        yield '</sst>';
      })(),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      pieces: (function* () {
        yield `<worksheet xmlns="${MAIN}"><sheetData>`;
        yield* options.sheetData;
        yield '</sheetData></worksheet>';
      })(),
    },
  ];
  return zipOf(parts);
}

/** `count` pieces made by `piece`, generated as they are deflated. */
export function* repeated(count: number, piece: (index: number) => string) {
  for (let index = 0; index < count; index++) yield piece(index);
}
