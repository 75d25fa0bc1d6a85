import type { ProducerShare, ProducerStatementRow } from '@coverdesk/contract';
import { csvLayout } from '../../http/csv.js';
import { type Column, CommissionPdf, FONT_SIZE, formatMoney, INK, MARGIN, MUTED, ROW_HEIGHT } from './pdf.js';

// A producer statement as a file: their policies of the period with the commission and their share
// of it, then the totals (the producer's row of the producers' view, summed by the database).

type Totals = Omit<ProducerShare, 'user_id' | 'name'>;

/** The CSV's columns, in order, with the heading each gets. */
const CSV_COLUMNS: [keyof ProducerStatementRow, string][] = [
  ['policy_number', 'Policy number'],
  ['customer_name', 'Customer'],
  ['company_name', 'Insurer'],
  ['start_date', 'Start date'],
  ['end_date', 'End date'],
  ['expected_commission', 'Expected commission'],
  ['received_commission', 'Earned on customer payments'],
  ['split_percentage', 'Split %'],
  ['producer_share_expected', 'Share of expected'],
  ['producer_share_received', 'Share of earned on payments'],
];

const layout = csvLayout(CSV_COLUMNS);

export const statementCsvHeader = layout.header;
export const statementCsvRows = layout.rows;

/** The last line: "Total" under the policy number and the producer's sums under their columns. */
export const statementCsvTotals = (totals: Totals) =>
  layout.rows([
    {
      policy_id: '',
      policy_number: 'Total',
      customer_name: `${totals.policies} ${totals.policies === 1 ? 'policy' : 'policies'}`,
      company_name: '',
      start_date: '',
      end_date: '',
      expected_commission: totals.expected_commission,
      received_commission: totals.received_commission,
      split_percentage: '',
      producer_share_expected: totals.producer_share_expected,
      producer_share_received: totals.producer_share_received,
    },
  ]);

const PDF_COLUMNS: Column<ProducerStatementRow>[] = [
  { title: 'Policy', width: 80, value: (row) => row.policy_number },
  { title: 'Customer', width: 130, value: (row) => row.customer_name },
  { title: 'Insurer', width: 110, value: (row) => row.company_name },
  { title: 'Start', width: 52, value: (row) => row.start_date },
  { title: 'End', width: 52, value: (row) => row.end_date },
  { title: 'Expected', width: 64, align: 'right', value: (row) => formatMoney(row.expected_commission) },
  { title: 'Received', width: 64, align: 'right', value: (row) => formatMoney(row.received_commission) },
  { title: 'Split %', width: 44, align: 'right', value: (row) => row.split_percentage },
  {
    title: 'Share expected',
    width: 76,
    align: 'right',
    value: (row) => formatMoney(row.producer_share_expected),
  },
  {
    title: 'Share received',
    width: 76,
    align: 'right',
    value: (row) => formatMoney(row.producer_share_received),
  },
];

/**
 * A producer statement as a PDF, on the commission report's own page layout (A4 landscape, the
 * table's headings repeated on each page): the heading, the producer's figures, their policies
 * batch by batch, then the totals row.
 */
export class ProducerStatementPdf extends CommissionPdf {
  /** The heading, the producer's four figures, and the policies' table heading. */
  writeProducer(name: string, totals: Totals) {
    const doc = this.document;
    this.writeHeading();
    this.sectionTitle(name);
    const figures: [string, string][] = [
      ['Policies', String(totals.policies)],
      ['Expected commission', formatMoney(totals.expected_commission)],
      ['Share of expected', formatMoney(totals.producer_share_expected)],
      ['Earned on customer payments', formatMoney(totals.received_commission)],
      ['Share of earned on payments', formatMoney(totals.producer_share_received)],
    ];
    const blockWidth = this.width / figures.length;
    figures.forEach(([label, figure], index) => {
      const x = MARGIN + index * blockWidth;
      doc.font('Helvetica').fontSize(8).fillColor(MUTED);
      this.cell(label, x - 2, blockWidth);
      doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
      this.y += 10;
      this.cell(figure, x - 2, blockWidth);
      this.y -= 10;
    });
    this.y += 28;
    doc.font('Helvetica').fontSize(FONT_SIZE);
    this.sectionTitle('Policies');
    this.tableHeading(PDF_COLUMNS);
  }

  /** A batch of the producer's policies, a new page (with the heading again) whenever one fills. */
  writeStatementRows(rows: ProducerStatementRow[]) {
    for (const row of rows) {
      const layout = this.rowLayout(PDF_COLUMNS, row);
      if (this.y + layout.height > this.bottom) {
        this.newPage();
        this.tableHeading(PDF_COLUMNS);
      }
      this.tableRow(layout, this.rowIndex % 2 === 1);
      this.rowIndex += 1;
    }
  }

  /** The totals row under the table, in bold, and the end of the document. */
  endWithTotals(totals: Totals) {
    const doc = this.document;
    if (this.rowIndex === 0) {
      doc.fontSize(FONT_SIZE).fillColor(MUTED);
      doc.text('No policies in this period.', MARGIN + 2, this.y + 4, { lineBreak: false });
      doc.fillColor(INK);
      this.y += ROW_HEIGHT;
    } else {
      const row: ProducerStatementRow = {
        policy_id: '',
        policy_number: 'Total',
        customer_name: `${totals.policies} ${totals.policies === 1 ? 'policy' : 'policies'}`,
        company_name: '',
        start_date: '',
        end_date: '',
        expected_commission: totals.expected_commission,
        received_commission: totals.received_commission,
        split_percentage: '',
        producer_share_expected: totals.producer_share_expected,
        producer_share_received: totals.producer_share_received,
      };
      doc.font('Helvetica-Bold').fontSize(FONT_SIZE).fillColor(INK);
      const layout = this.rowLayout(PDF_COLUMNS, row);
      this.ensureRoom(layout.height);
      const tableWidth = PDF_COLUMNS.reduce((sum, column) => sum + column.width, 0);
      doc
        .moveTo(MARGIN, this.y)
        .lineTo(MARGIN + tableWidth, this.y)
        .lineWidth(0.75)
        .strokeColor(INK)
        .stroke();
      this.tableRow(layout, false);
      doc.font('Helvetica');
    }
    this.document.end();
  }
}
