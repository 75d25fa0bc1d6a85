import { once } from 'node:events';
import { inflateSync } from 'node:zlib';
import type { CommissionCompanySummary, CommissionReportRow, CommissionSummary } from '@coverdesk/contract';
import { describe, expect, it } from 'vitest';
import { CommissionPdf } from './pdf.js';

const LONG_INSURER = 'Migdal Insurance and Financial Holdings International';
const LONG_CUSTOMER = 'Bartholomew Featherstonehaugh-Cholmondeley';

const row: CommissionReportRow = {
  policy_id: 'p1',
  policy_number: 'MI-MOT-1001',
  customer_id: 'c1',
  customer_name: LONG_CUSTOMER,
  company_id: 'i1',
  company_name: LONG_INSURER,
  company_commission_type: 'percentage',
  commission_payment_method: 'pro_rata',
  policy_type_id: 't1',
  policy_type_name: 'Motor',
  status: 'active',
  start_date: '2026-01-01',
  end_date: '2026-12-31',
  total_premium: '1200.00',
  net_premium: '1000.00',
  commission_percentage: '12.50',
  expected_commission: '125.00',
  received_commission: '0.00',
  outstanding_commission: '125.00',
  received_commission_percentage: '0.00',
  payment_status: 'Pending',
  installments_paid: 0,
  total_installments: 12,
  amount_paid: '0.00',
  insurer_paid_commission: '0.00',
  owed_by_insurer: '0.00',
  created_at: '2026-01-01T09:00:00Z',
};

const summary: CommissionSummary = {
  total_policies: 1,
  total_premium: '1200.00',
  total_commission: '125.00',
  total_expected_commission: '125.00',
  total_received_commission: '0.00',
  total_paid: '0.00',
  total_pending: '1200.00',
  total_earned: '0.00',
  outstanding_commission: '125.00',
  commission_received_percentage: '0.00',
  average_commission_percentage: '12.50',
};

const insurer: CommissionCompanySummary = {
  company_id: 'i1',
  company_name: LONG_INSURER,
  company_commission_type: 'percentage',
  commission_payment_method: 'pro_rata',
  total_policies: 1,
  total_premium: '1200.00',
  total_expected_commission: '125.00',
  total_received_commission: '0.00',
  outstanding_commission: '125.00',
  commission_received_percentage: '0.00',
};

/** Every piece of text the PDF's pages draw, in order, read back from its (deflated) content streams. */
async function drawnText(rows: CommissionReportRow[]): Promise<string[]> {
  const pdf = new CommissionPdf({
    agencyName: 'Levi Insurance',
    currency: 'EUR',
    period: '2026',
    filters: [],
    generatedAt: '2026-11-27 10:00',
  });
  const chunks: Buffer[] = [];
  pdf.document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = once(pdf.document, 'end');
  pdf.writeTotals(summary, [insurer]);
  pdf.writeRows(rows);
  pdf.end();
  await finished;
  const file = Buffer.concat(chunks).toString('latin1');
  const texts: string[] = [];
  for (const stream of file.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content = '';
    try {
      content = inflateSync(Buffer.from(stream[1] ?? '', 'latin1')).toString('latin1');
    } catch {
      // A stream that is not deflated text (a font's metrics) holds no drawn text.
    }
    for (const match of content.matchAll(/<([0-9a-f]*)> Tj/g)) {
      texts.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
    }
  }
  return texts;
}

describe('the commission PDF', () => {
  it('keeps long insurer and customer names whole, on more lines of their row', async () => {
    const texts = await drawnText([row]);
    // Lines follow one another in the page's text; a word wider than its column breaks across lines.
    const drawn = texts.join('').replace(/\s/g, '');
    for (const name of [LONG_INSURER, LONG_CUSTOMER]) expect(drawn).toContain(name.replace(/\s/g, ''));
    expect(texts.filter((text) => text.includes('…') || text.includes('\u0085'))).toEqual([]);
  });

  it('writes the labels the report screen shows, not stored values', async () => {
    const texts = await drawnText([row]);
    expect(texts).toContain('Pro Rata');
    expect(texts.join(' ')).toMatch(/Nothing paid yet|Nothing paid +yet|Nothing +paid yet/);
    expect(texts).not.toContain('Pending');
    expect(texts).not.toContain('pro_rata');
  });
});
