import path from 'node:path/posix';
import {
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_EXPANDED_BYTES,
  MAX_IMPORT_SHARED_STRING_CHARS,
  MAX_IMPORT_SHARED_STRINGS,
} from '@coverdesk/contract';
import type { ZipFile } from 'yauzl';
import { cellTooLong, expandsTooFar, tooManyColumns, tooMuchText } from './file-bounds.js';
import { type XmlHandler, XmlScanner } from './xml-scanner.js';
import { ExpansionBudget, openArchive, partBytes, type ZipPart } from './zip.js';

// The first worksheet of an XLSX workbook, row by row, in bounded memory: the parts are inflated and
// scanned as streams, and every bound of an import is checked as the bytes arrive, so a workbook that
// expands past one is refused at that point rather than read to its end.

/** A row as the sheet numbers it (from 1) and its cells as text, in column order. */
export interface SheetRow {
  row: number;
  cells: string[];
}

/** The workbook's small parts (relationships, the workbook, its styles) are never larger than this. */
const MAX_SMALL_PART_BYTES = 8 * 1024 * 1024;
/** Characters held while one text or tag of a part is incomplete: a cell's text, entities and all. */
const MAX_PENDING_CHARS = MAX_IMPORT_CELL_CHARS * 8;

/** Number formats Excel has built in that show a date. */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 22, ...range(27, 36), ...range(50, 58)]);

function range(first: number, last: number) {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/** A custom format shows a date when, outside quoted text, escapes and brackets, it names days or years. */
const isDateFormat = (code: string) =>
  /[dy]/i.test(code.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '')) && !/^general$/i.test(code);

/** "AB12" -> 27 (columns count from 0); undefined without a reference. */
function columnOf(reference: string | undefined): number | undefined {
  const letters = reference && /^[A-Z]+/i.exec(reference)?.[0].toUpperCase();
  if (!letters) return undefined;
  let column = 0;
  for (const letter of letters) column = column * 26 + letter.charCodeAt(0) - 64;
  return column - 1;
}

/** A date serial as an ISO date; Excel counts days from 1899-12-30, or from 1904-01-01. */
function serialDate(serial: number, date1904: boolean) {
  const unixDays = serial - (date1904 ? 24107 : 25569);
  return new Date(Math.round(unixDays * 86_400_000)).toISOString().slice(0, 10);
}

class Workbook {
  private readonly expanded = new ExpansionBudget(MAX_IMPORT_EXPANDED_BYTES, expandsTooFar);

  private constructor(
    private readonly zip: ZipFile,
    private readonly parts: Map<string, ZipPart>,
  ) {}

  static async open(bytes: Buffer) {
    const { zip, parts } = await openArchive(bytes);
    return new Workbook(zip, parts);
  }

  part(name: string | undefined): ZipPart | undefined {
    return name === undefined ? undefined : this.parts.get(name);
  }

  /** A part's bytes as they are inflated, counted against what the whole workbook may expand to. */
  chunks(part: ZipPart, small = false) {
    const budgets = [this.expanded];
    if (small) budgets.push(new ExpansionBudget(MAX_SMALL_PART_BYTES, expandsTooFar));
    return partBytes(this.zip, part, budgets);
  }

  /** Scans a part, handing each element and text to `handler` as its bytes are inflated. */
  async scan(part: ZipPart, handler: XmlHandler, small = false) {
    const scanner = new XmlScanner(handler, MAX_PENDING_CHARS, () => cellTooLong());
    for await (const chunk of this.chunks(part, small)) scanner.write(chunk);
    scanner.end();
  }

  /** A relationships part's targets by id and by type, resolved against the part they belong to. */
  async relationships(owner: string) {
    const byId = new Map<string, string>();
    const byType = new Map<string, string>();
    const part = this.part(path.join(path.dirname(owner), '_rels', `${path.basename(owner)}.rels`));
    if (!part) return { byId, byType };
    await this.scan(
      part,
      {
        open(name, attributes) {
          if (name !== 'Relationship' || !attributes.Target) return;
          const target = attributes.Target.startsWith('/')
            ? attributes.Target.slice(1)
            : path.join(path.dirname(owner), attributes.Target);
          byId.set(attributes.Id ?? '', target);
          byType.set((attributes.Type ?? '').split('/').at(-1) ?? '', target);
        },
        close() {},
        text() {},
      },
      true,
    );
    return { byId, byType };
  }
}

/** The workbook's first sheet, and whether its dates count from 1904. */
async function firstSheet(book: Workbook, workbookPath: string) {
  const part = book.part(workbookPath);
  if (!part) throw new Error('no workbook part');
  let sheetId: string | undefined;
  let date1904 = false;
  await book.scan(
    part,
    {
      open(name, attributes) {
        if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attributes.date1904 ?? '');
        if (name === 'sheet' && sheetId === undefined) {
          sheetId = Object.entries(attributes).find(([key]) => key === 'id' || key.endsWith(':id'))?.[1];
        }
      },
      close() {},
      text() {},
    },
    true,
  );
  return { sheetId, date1904 };
}

/** For each cell style, whether it shows a date. */
async function dateStyles(book: Workbook, part: ZipPart | undefined): Promise<boolean[]> {
  const styles: boolean[] = [];
  if (!part) return styles;
  const customFormats = new Map<number, string>();
  let inCellFormats = false;
  await book.scan(
    part,
    {
      open(name, attributes) {
        if (name === 'numFmt') customFormats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
        if (name === 'cellXfs') inCellFormats = true;
        if (name === 'xf' && inCellFormats) {
          const format = Number(attributes.numFmtId ?? 0);
          const custom = customFormats.get(format);
          styles.push(custom === undefined ? BUILT_IN_DATE_FORMATS.has(format) : isDateFormat(custom));
        }
      },
      close(name) {
        if (name === 'cellXfs') inCellFormats = false;
      },
      text() {},
    },
    true,
  );
  return styles;
}

/** The workbook's shared strings, each the plain text of its runs (phonetic guides left out). */
async function sharedStrings(book: Workbook, part: ZipPart | undefined) {
  const strings: string[] = [];
  if (!part) return strings;
  let current = '';
  let inText = false;
  let inPhonetic = false;
  let characters = 0;
  await book.scan(part, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = true;
      else if (name === 'rPh') inPhonetic = true;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'si') {
        if (strings.length === MAX_IMPORT_SHARED_STRINGS) throw tooMuchText();
        characters += current.length;
        if (characters > MAX_IMPORT_SHARED_STRING_CHARS) throw tooMuchText();
        strings.push(current);
      }
    },
    text(text) {
      if (!inText || inPhonetic) return;
      current += text;
      if (current.length > MAX_IMPORT_CELL_CHARS) throw cellTooLong();
    },
  });
  return strings;
}

/** What a cell element holds, as it is read. */
interface CellReading {
  column: number;
  type: string;
  style: number;
  value: string;
  inline: string;
}

/**
 * The first worksheet's rows, with the sheet's own row numbers. Cells are text as a spreadsheet shows
 * them: dates as ISO dates, formulas as their results, rich text as its plain text, TRUE/FALSE as
 * "true"/"false", errors as blanks.
 */
export async function* readWorkbookRows(bytes: Buffer): AsyncGenerator<SheetRow> {
  const book = await Workbook.open(bytes);
  const root = await book.relationships('');
  const workbookPath = root.byType.get('officeDocument') ?? 'xl/workbook.xml';
  const { sheetId, date1904 } = await firstSheet(book, workbookPath);
  const related = await book.relationships(workbookPath);
  const sheet = book.part(sheetId === undefined ? undefined : related.byId.get(sheetId));
  if (!sheet) throw new Error('no worksheet');
  const isDate = await dateStyles(book, book.part(related.byType.get('styles')));
  const strings = await sharedStrings(book, book.part(related.byType.get('sharedStrings')));

  const text = (cell: CellReading): string => {
    switch (cell.type) {
      case 's':
        return strings[Number(cell.value)] ?? '';
      case 'inlineStr':
        return cell.inline;
      case 'str':
        return cell.value;
      case 'b':
        return cell.value === '1' ? 'true' : 'false';
      case 'e':
        return '';
      case 'd':
        return cell.value.slice(0, 10);
      default: {
        if (cell.value.trim() === '') return '';
        const number = Number(cell.value);
        if (Number.isNaN(number)) return cell.value;
        return isDate[cell.style] ? serialDate(number, date1904) : String(number);
      }
    }
  };

  const ready: SheetRow[] = [];
  let row: SheetRow | undefined;
  let cell: CellReading | undefined;
  let lastRow = 0;
  let reading: 'value' | 'inline' | undefined;
  let inPhonetic = false;
  const handler = {
    open(name: string, attributes: Record<string, string>) {
      if (name === 'row') {
        lastRow = attributes.r ? Number(attributes.r) : lastRow + 1;
        row = { row: lastRow, cells: [] };
      } else if (name === 'c' && row) {
        const column = columnOf(attributes.r) ?? row.cells.length;
        if (column >= MAX_IMPORT_COLUMNS) throw tooManyColumns(row.row, column + 1);
        cell = { column, type: attributes.t ?? 'n', style: Number(attributes.s ?? 0), value: '', inline: '' };
      } else if (cell && name === 'v') reading = 'value';
      else if (cell && name === 't') reading = 'inline';
      else if (name === 'rPh') inPhonetic = true;
    },
    close(name: string) {
      if (name === 'v' || name === 't') reading = undefined;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'c' && row && cell) {
        while (row.cells.length < cell.column) row.cells.push('');
        row.cells[cell.column] = text(cell);
        cell = undefined;
      } else if (name === 'row' && row) {
        ready.push(row);
        row = undefined;
      }
    },
    text(piece: string) {
      if (!cell || !reading || inPhonetic) return;
      if (reading === 'value') cell.value += piece;
      else cell.inline += piece;
      if (cell.value.length + cell.inline.length > MAX_IMPORT_CELL_CHARS) {
        throw cellTooLong(row?.row, cell.column);
      }
    },
  };
  const scanner = new XmlScanner(handler, MAX_PENDING_CHARS, () => cellTooLong(row?.row));
  for await (const chunk of book.chunks(sheet)) {
    scanner.write(chunk);
    yield* ready.splice(0);
  }
  scanner.end();
  yield* ready.splice(0);
}
