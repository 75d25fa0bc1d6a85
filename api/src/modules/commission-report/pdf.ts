import {
  COMMISSION_PAYMENT_METHOD_LABELS,
  COMMISSION_PAYMENT_STATUS_LABELS,
  type CommissionCompanySummary,
  type CommissionReportRow,
  type CommissionSummary,
} from '@coverdesk/contract';
import PDFDocument from 'pdfkit';

// The commission report as a PDF a broker can send an insurer or file: the agency, the period and
// filters, the totals, each insurer's totals, then every row, on A4 landscape pages whose tables
// repeat their headings. Laid out by hand (positions computed here, text written without pdfkit's
// line wrapper), so a 100,000-row report renders in seconds; pages are written out as they fill.
// Names too long for their column wrap onto more lines of the row rather than being cut.

/** The parts of pdfkit's document that `rowText` writes through; not in its published types. */
interface RawDocument {
  _font: {
    id: string;
    ascender: number;
    ref(): unknown;
    /** The standard font's metrics: each character's code in its encoding, in hex. */
    font: { encodeText(text: string): string[] };
  };
  _fontSize: number;
  page: PDFKit.PDFPage & { fonts: Record<string, unknown> };
  addContent(operators: string): void;
}

export interface ReportHeading {
  agencyName: string;
  currency: string;
  period: string;
  filters: string[];
  generatedAt: string;
  /** What the document is, in its title and footer: "Commission report" unless said. */
  title?: string;
}

export interface Column<Row> {
  title: string;
  width: number;
  align?: 'right';
  value: (row: Row) => string;
}

/** A cell of a table row as written: its lines, where its column starts and how wide it is. */
interface RowCell {
  lines: string[];
  x: number;
  width: number;
  align?: 'right';
}

export const MARGIN = 36;
export const FONT_SIZE = 7.5;
export const ROW_HEIGHT = 13;
/** Each further line of a wrapped cell. */
const LINE_HEIGHT = 9;
/** A name longer than this many lines (a pasted paragraph) ends with an ellipsis on its last. */
const MAX_LINES = 4;
export const INK = '#1f2933';
export const MUTED = '#52606d';
const BAND = '#f0f4f8';

/** "1234567.5" -> "1,234,567.50", from the digits, never through a float. */
export function formatMoney(amount: string): string {
  const [whole = '0', fraction = '00'] = amount.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '');
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction.padEnd(2, '0')}`;
}

const ROW_COLUMNS: Column<CommissionReportRow>[] = [
  { title: 'Policy', width: 62, value: (row) => row.policy_number },
  { title: 'Customer', width: 82, value: (row) => row.customer_name },
  { title: 'Insurer', width: 70, value: (row) => row.company_name },
  { title: 'Type', width: 54, value: (row) => row.policy_type_name },
  { title: 'Start', width: 44, value: (row) => row.start_date },
  { title: 'End', width: 44, value: (row) => row.end_date },
  { title: 'Premium', width: 52, align: 'right', value: (row) => formatMoney(row.total_premium) },
  { title: 'Net', width: 52, align: 'right', value: (row) => formatMoney(row.net_premium) },
  { title: 'Rate %', width: 32, align: 'right', value: (row) => row.commission_percentage },
  { title: 'Expected', width: 50, align: 'right', value: (row) => formatMoney(row.expected_commission) },
  {
    title: 'Earned on payments',
    width: 50,
    align: 'right',
    value: (row) => formatMoney(row.received_commission),
  },
  {
    title: 'Outstanding',
    width: 56,
    align: 'right',
    value: (row) => formatMoney(row.outstanding_commission),
  },
  { title: 'Paid', width: 48, align: 'right', value: (row) => formatMoney(row.amount_paid) },
  {
    title: 'Instal.',
    width: 32,
    align: 'right',
    value: (row) => `${row.installments_paid}/${row.total_installments}`,
  },
  { title: 'Payment', width: 42, value: (row) => COMMISSION_PAYMENT_STATUS_LABELS[row.payment_status] },
];

const COMPANY_COLUMNS: Column<CommissionCompanySummary>[] = [
  { title: 'Insurer', width: 170, value: (row) => row.company_name },
  {
    title: 'Commission paid',
    width: 80,
    value: (row) => COMMISSION_PAYMENT_METHOD_LABELS[row.commission_payment_method],
  },
  { title: 'Policies', width: 55, align: 'right', value: (row) => String(row.total_policies) },
  { title: 'Premium', width: 85, align: 'right', value: (row) => formatMoney(row.total_premium) },
  {
    title: 'Expected',
    width: 85,
    align: 'right',
    value: (row) => formatMoney(row.total_expected_commission),
  },
  {
    title: 'Earned on payments',
    width: 85,
    align: 'right',
    value: (row) => formatMoney(row.total_received_commission),
  },
  {
    title: 'Outstanding',
    width: 85,
    align: 'right',
    value: (row) => formatMoney(row.outstanding_commission),
  },
  {
    title: 'Earned on payments %',
    width: 60,
    align: 'right',
    value: (row) => row.commission_received_percentage,
  },
];

/** A report PDF being written: the heading and totals first, then rows batch by batch. */
export class CommissionPdf {
  readonly document: PDFKit.PDFDocument;
  protected y = MARGIN;
  protected pageNumber = 1;
  protected rowIndex = 0;
  private readonly widths = new Map<string, number>();

  constructor(protected readonly heading: ReportHeading) {
    this.document = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: MARGIN,
      info: {
        Title: `${heading.title ?? 'Commission report'}, ${heading.period}`,
        Author: heading.agencyName,
      },
    });
    this.document.font('Helvetica').fillColor(INK);
    this.footer();
  }

  protected get bottom() {
    return this.document.page.height - MARGIN - 14;
  }

  protected get width() {
    return this.document.page.width - 2 * MARGIN;
  }

  /** `text` cut with an ellipsis to fit `width`, and where it starts: right-aligned on request. */
  private fit(text: string, x: number, width: number, align?: 'right') {
    let shown = text;
    let shownWidth = this.widthOf(shown);
    if (shownWidth > width - 4) {
      while (shown.length > 1 && this.widthOf(`${shown}…`) > width - 4) shown = shown.slice(0, -1);
      shown = `${shown.trimEnd()}…`;
      shownWidth = this.widthOf(shown);
    }
    return { shown, left: align === 'right' ? x + width - 2 - shownWidth : x + 2 };
  }

  /**
   * `text` in lines that fit `width`, broken between words, and inside a word only when the word
   * alone is wider than the column. Past MAX_LINES the last line is cut with an ellipsis.
   */
  private wrap(text: string, width: number): string[] {
    if (this.widthOf(text) <= width - 4) return [text];
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/)) {
      const joined = line === '' ? word : `${line} ${word}`;
      if (this.widthOf(joined) <= width - 4) {
        line = joined;
        continue;
      }
      if (line !== '') lines.push(line);
      line = word;
      while (this.widthOf(line) > width - 4 && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && this.widthOf(line.slice(0, cut)) > width - 4) cut -= 1;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line !== '') lines.push(line);
    if (lines.length <= MAX_LINES) return lines;
    return [...lines.slice(0, MAX_LINES - 1), lines.slice(MAX_LINES - 1).join(' ')];
  }

  /** Names, dates and statuses repeat down a report, so their widths are measured once. */
  private widthOf(text: string) {
    const doc = this.document as PDFKit.PDFDocument & RawDocument;
    const key = `${doc._font.id} ${doc._fontSize} ${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      if (this.widths.size > 10_000) this.widths.clear();
      width = doc.widthOfString(text);
      this.widths.set(key, width);
    }
    return width;
  }

  /**
   * Text in the standard font's one-byte encoding (Windows-1252), as hex. A character it cannot
   * show becomes "?", where pdfkit would write two bytes that read as two wrong characters.
   */
  private encode(text: string) {
    const doc = this.document as PDFKit.PDFDocument & RawDocument;
    return doc._font.font
      .encodeText(text)
      .map((code) => (code.length > 2 ? '3f' : code.padStart(2, '0')))
      .join('');
  }

  /** Text at a position, cut to fit `width`. */
  protected cell(text: string, x: number, width: number, align?: 'right') {
    const { shown, left } = this.fit(text, x, width, align);
    this.document.text(shown, left, this.y + 3.5, { lineBreak: false });
  }

  /**
   * A row's cells as one text object written straight into the page, in the current font and
   * colour: what pdfkit's text() writes for each cell, without its layout work per call, which
   * made a 100,000-row report take a minute. Coordinates are flipped back to PDF's own for it,
   * as pdfkit does. A cell's further lines go one LINE_HEIGHT below the one before.
   */
  private rowText(cells: RowCell[]) {
    const doc = this.document as PDFKit.PDFDocument & RawDocument;
    const font = doc._font;
    if (doc.page.fonts[font.id] == null) doc.page.fonts[font.id] = font.ref();
    const baseline = doc.page.height - (this.y + 3.5) - (font.ascender / 1000) * doc._fontSize;
    const operators = ['q', `1 0 0 -1 0 ${doc.page.height} cm`, 'BT', `/${font.id} ${doc._fontSize} Tf`];
    for (const cell of cells) {
      cell.lines.forEach((text, index) => {
        const { shown, left } = this.fit(text, cell.x, cell.width, cell.align);
        const y = baseline - index * LINE_HEIGHT;
        operators.push(`1 0 0 1 ${left.toFixed(2)} ${y.toFixed(2)} Tm`, `<${this.encode(shown)}> Tj`);
      });
    }
    operators.push('ET', 'Q');
    doc.addContent(operators.join('\n'));
  }

  private footer() {
    const doc = this.document;
    const { y } = this;
    doc.fontSize(7).fillColor(MUTED);
    this.y = doc.page.height - MARGIN - 6;
    this.cell(
      `${this.heading.agencyName} · ${this.heading.title ?? 'Commission report'} · ${this.heading.period}`,
      MARGIN,
      500,
    );
    this.cell(`Page ${this.pageNumber}`, MARGIN + this.width - 100, 100, 'right');
    // Back to the tables' type, so a row written after a page break is measured as it is drawn.
    doc.fontSize(FONT_SIZE).fillColor(INK);
    this.y = y;
  }

  protected newPage() {
    this.document.addPage();
    this.pageNumber += 1;
    this.y = MARGIN;
    this.footer();
  }

  protected ensureRoom(height: number) {
    if (this.y + height > this.bottom) this.newPage();
  }

  protected tableHeading<Row>(columns: Column<Row>[]) {
    const doc = this.document;
    doc.font('Helvetica-Bold').fontSize(FONT_SIZE).fillColor(INK);
    let x = MARGIN;
    for (const column of columns) {
      this.cell(column.title, x, column.width, column.align);
      x += column.width;
    }
    const tableWidth = columns.reduce((sum, column) => sum + column.width, 0);
    this.y += ROW_HEIGHT;
    doc
      .moveTo(MARGIN, this.y)
      .lineTo(MARGIN + tableWidth, this.y)
      .lineWidth(0.75)
      .strokeColor(INK)
      .stroke();
    doc.font('Helvetica');
  }

  /** A row's cells, text wrapped to its column (figures, right-aligned, stay on one line), and its height. */
  protected rowLayout<Row>(columns: Column<Row>[], row: Row) {
    let x = MARGIN;
    const cells = columns.map((column): RowCell => {
      const text = column.value(row);
      const lines = column.align === 'right' ? [text] : this.wrap(text, column.width);
      const cell = { lines, x, width: column.width, align: column.align };
      x += column.width;
      return cell;
    });
    const lines = Math.max(...cells.map((cell) => cell.lines.length));
    return { cells, height: ROW_HEIGHT + (lines - 1) * LINE_HEIGHT };
  }

  protected tableRow(layout: { cells: RowCell[]; height: number }, banded: boolean) {
    const doc = this.document;
    if (banded) {
      const tableWidth = layout.cells.reduce((sum, cell) => sum + cell.width, 0);
      doc.rect(MARGIN, this.y, tableWidth, layout.height).fill(BAND);
      doc.fillColor(INK);
    }
    this.rowText(layout.cells);
    this.y += layout.height;
  }

  protected sectionTitle(title: string) {
    this.ensureRoom(ROW_HEIGHT * 4);
    this.y += 10;
    this.document.font('Helvetica-Bold').fontSize(11).fillColor(INK);
    this.document.text(title, MARGIN, this.y, { lineBreak: false });
    this.y += 18;
    this.document.font('Helvetica').fontSize(FONT_SIZE);
  }

  /** The agency, what the document is and its period, then its filters, currency and date. */
  protected writeHeading() {
    const doc = this.document;
    const { heading } = this;
    doc.font('Helvetica-Bold').fontSize(16).text(heading.agencyName, MARGIN, this.y, { lineBreak: false });
    this.y += 22;
    doc.font('Helvetica').fontSize(11).fillColor(MUTED);
    doc.text(`${heading.title ?? 'Commission report'} · ${heading.period}`, MARGIN, this.y, {
      lineBreak: false,
    });
    this.y += 16;
    doc.fontSize(8.5);
    const notes = [
      heading.filters.length > 0 ? `Filters: ${heading.filters.join('; ')}` : 'Filters: none',
      `Amounts in ${heading.currency}. Generated ${heading.generatedAt}.`,
    ];
    for (const note of notes) {
      this.cell(note, MARGIN - 2, this.width);
      this.y += 12;
    }
    doc.fillColor(INK);
  }

  /** The agency, period and filters, the summary and the per-insurer table. */
  writeTotals(summary: CommissionSummary, companies: CommissionCompanySummary[]) {
    const doc = this.document;
    this.writeHeading();

    this.sectionTitle('Summary');
    const figures: [string, string][] = [
      ['Policies', String(summary.total_policies)],
      ['Total premium', formatMoney(summary.total_premium)],
      ['Paid by customers', formatMoney(summary.total_paid)],
      ['Premium still to pay', formatMoney(summary.total_pending)],
      ['Expected commission', formatMoney(summary.total_expected_commission)],
      ['Earned on customer payments', formatMoney(summary.total_received_commission)],
      ['Outstanding commission', formatMoney(summary.outstanding_commission)],
      ['Earned on payments', `${summary.commission_received_percentage} %`],
      ['Average commission rate', `${summary.average_commission_percentage} %`],
    ];
    const perLine = 3;
    const blockWidth = this.width / perLine;
    figures.forEach(([label, figure], index) => {
      const x = MARGIN + (index % perLine) * blockWidth;
      doc.font('Helvetica').fontSize(8).fillColor(MUTED);
      this.cell(label, x - 2, blockWidth);
      doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
      this.y += 10;
      this.cell(figure, x - 2, blockWidth);
      this.y -= 10;
      if (index % perLine === perLine - 1) this.y += 28;
    });
    if (figures.length % perLine !== 0) this.y += 28;

    this.sectionTitle('By insurer');
    if (companies.length === 0) {
      doc
        .fontSize(FONT_SIZE)
        .fillColor(MUTED)
        .text('No policies match.', MARGIN, this.y, { lineBreak: false });
      doc.fillColor(INK);
      this.y += ROW_HEIGHT;
    } else {
      this.tableHeading(COMPANY_COLUMNS);
      companies.forEach((company, index) => {
        const layout = this.rowLayout(COMPANY_COLUMNS, company);
        this.ensureRoom(layout.height);
        this.tableRow(layout, index % 2 === 1);
      });
    }
    this.sectionTitle('Policies');
    this.tableHeading(ROW_COLUMNS);
  }

  /** A batch of rows, starting a new page (with the table heading again) whenever one fills. */
  writeRows(rows: CommissionReportRow[]) {
    for (const row of rows) {
      const layout = this.rowLayout(ROW_COLUMNS, row);
      if (this.y + layout.height > this.bottom) {
        this.newPage();
        this.tableHeading(ROW_COLUMNS);
      }
      this.tableRow(layout, this.rowIndex % 2 === 1);
      this.rowIndex += 1;
    }
  }

  end() {
    if (this.rowIndex === 0) {
      this.document.fontSize(FONT_SIZE).fillColor(MUTED);
      this.document.text('No policies match.', MARGIN + 2, this.y + 4, { lineBreak: false });
    }
    this.document.end();
  }
}
