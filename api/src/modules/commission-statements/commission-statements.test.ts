import type { CommissionStatementDetail, StatementLine } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookParties, type Caller, ok } from '../../../test/book-parties.js';
import { readThrough, uploadStatement } from '../../../test/statement-upload.js';
import { addTeamMember } from '../../../test/team-book.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Parties = Awaited<ReturnType<typeof addBookParties>>;

const csv = (rows: string[][]) => Buffer.from(`${rows.map((row) => row.join(',')).join('\r\n')}\r\n`);

const upload = (agency: Agency, fields: Record<string, string>, file: Buffer, name?: string) =>
  uploadStatement(t.app, agency.access, fields, file, name);

async function uploaded(agency: Agency, fields: Record<string, string>, file: Buffer) {
  return readThrough(agency.as, await upload(agency, fields, file));
}

const policyOf = (
  as: Caller,
  parties: Parties,
  policy_number: string,
  customer_id: string,
  body: Record<string, unknown> = {},
) =>
  ok<{ id: string }>(
    as.post('/api/policies/', {
      policy_number,
      customer_id,
      company_id: parties.harel.id,
      policy_type_id: parties.motor.id,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      total_premium: '1200.00',
      ...body,
    }),
    201,
  );

const lineNumbered = (statement: CommissionStatementDetail, line: number) =>
  statement.lines.find((each) => each.line_number === line) as StatementLine;

/** Harel (full policy, Motor 10%): four policies on the statement's lines, one left off it. */
async function harelBook(agency: Agency) {
  const parties = await addBookParties(agency.as);
  const dana = await policyOf(agency.as, parties, 'AB-1003', parties.dana);
  const yossi = await policyOf(agency.as, parties, 'HX-2001', parties.yossi, { total_premium: '2400.00' });
  const rina = await policyOf(agency.as, parties, 'HX-2002', parties.rina, { total_premium: '1000.00' });
  const cancelled = await policyOf(agency.as, parties, 'HX-3001', parties.rina, { total_premium: '1000.00' });
  await ok(
    agency.as.post(`/api/policies/${cancelled.id}/cancel/`, {
      cancelled_at: '2026-02-01',
      reason: 'Sold the car',
      refund_amount: '1000.00',
    }),
  );
  // Started in March, after the previous month: the statement should have paid it.
  const leftOff = await policyOf(agency.as, parties, 'HX-4001', parties.dana, {
    total_premium: '500.00',
    start_date: '2026-03-10',
    end_date: '2027-03-09',
  });
  // Clal's: a Harel statement never matches it, whatever its number.
  const clals = await policyOf(agency.as, parties, 'CL-0001', parties.yossi, { company_id: parties.clal.id });
  return { parties, dana, yossi, rina, cancelled, leftOff, clals };
}

const HEADER = ['Policy No.', 'Insured Name', 'Gross Premium', 'Commission', 'Trans Date'];
const MARCH = [
  HEADER,
  ['ab 1003', 'Dana Levi', '1200.00', '120.00', '2026-03-01'],
  ['HX2001', 'COHEN YOSSI', '2400.00', '200.00', '2026-03-01'],
  ['', 'Rina Azulay', '1005.00', '110.00', '2026-03-01'],
  ['ZZ-999', 'Nobody Known', '300.00', '30.00', '2026-03-01'],
  ['HX-3001', 'Rina Azulay', '1000.00', '(25.00)', '2026-03-01'],
  ['CL-0001', 'Yossi Cohen', '1200.00', '150.00', '2026-03-01'],
];

describe('an insurer’s commission statement', () => {
  it('matches each line and compares it with what the insurer owed, to the cent', async () => {
    const agency = await signedInAgency(t.app);
    const book = await harelBook(agency);
    const statement = await uploaded(
      agency,
      { company_id: book.parties.harel.id, statement_date: '2026-03-31', total_amount: '585.00' },
      csv(MARCH),
    );
    expect(statement).toMatchObject({
      status: 'review',
      total_amount: '585.00',
      lines_total: '585.00',
      line_count: 6,
      unconfirmed: 1,
      unresolved: 2,
      counts: { matched: 1, short_paid: 1, over_paid: 1, chargeback: 1, unmatched: 2, missing: 1 },
    });
    // "ab 1003" is AB-1003: 10% of 1,200.00, paid in full.
    expect(lineNumbered(statement, 2)).toMatchObject({
      policy_id: book.dana.id,
      policy_number: 'AB-1003',
      match_method: 'exact',
      confirmed: true,
      expected_commission: '120.00',
      paid_commission: '120.00',
      difference: '0.00',
      outcome: 'matched',
    });
    expect(lineNumbered(statement, 3)).toMatchObject({
      policy_id: book.yossi.id,
      expected_commission: '240.00',
      difference: '-40.00',
      outcome: 'short_paid',
    });
    // No number: Rina by name, her 1,000.00 premium within 1% of 1,005.00.
    const fuzzy = lineNumbered(statement, 4);
    expect(fuzzy).toMatchObject({
      policy_id: book.rina.id,
      match_method: 'fuzzy',
      confirmed: false,
      expected_commission: '100.00',
      difference: '10.00',
      outcome: 'over_paid',
    });
    expect(Number(fuzzy.confidence)).toBeGreaterThan(0.45);
    expect(lineNumbered(statement, 5)).toMatchObject({
      policy_id: null,
      outcome: 'unmatched',
      difference: null,
    });
    // Refunded in full, the cancelled term earned nothing: the insurer takes its commission back.
    expect(lineNumbered(statement, 6)).toMatchObject({
      policy_id: book.cancelled.id,
      paid_commission: '-25.00',
      expected_commission: '0.00',
      difference: '-25.00',
      outcome: 'chargeback',
    });
    expect(lineNumbered(statement, 7)).toMatchObject({ policy_id: null, outcome: 'unmatched' });
    expect(statement.missing).toEqual([
      {
        policy_id: book.leftOff.id,
        policy_number: 'HX-4001',
        customer_name: 'Dana Levi',
        expected_commission: '50.00',
        due_since: '2026-03-10',
      },
    ]);

    const shortOnly = (
      await agency.as.get(`/api/commission-statements/${statement.id}/?outcome=short_paid`)
    ).json();
    expect(shortOnly.lines.map((line: StatementLine) => line.line_number)).toEqual([3]);
    expect(shortOnly.lines_matching).toBe(1);
    // A long statement reads a page of lines at a time; the counts stay the whole statement's.
    const secondPage = await ok<CommissionStatementDetail>(
      agency.as.get(`/api/commission-statements/${statement.id}/?page=2&page_size=4`),
    );
    expect(secondPage.lines.map((line) => line.line_number)).toEqual([6, 7]);
    expect(secondPage).toMatchObject({ lines_matching: 6, counts: statement.counts });
    expect(statement.lines_matching).toBe(6);
  });

  it('is accepted once its total agrees and its fuzzy matches are confirmed, then counts against the next', async () => {
    const agency = await signedInAgency(t.app);
    const book = await harelBook(agency);
    const harel = book.parties.harel.id;
    const statement = await uploaded(
      agency,
      { company_id: harel, statement_date: '2026-03-31', total_amount: '580.00' },
      csv(MARCH),
    );
    const url = `/api/commission-statements/${statement.id}/`;
    const wrongTotal = await agency.as.post(`${url}accept/`);
    expect(wrongTotal.statusCode).toBe(409);
    expect(wrongTotal.json().detail).toBe(
      "The statement's total is 580.00 but its lines add up to 585.00. Correct the total before accepting.",
    );

    // The broker deletes it and uploads it again with the right total; the fuzzy match waits.
    expect((await agency.as.delete(url)).statusCode).toBe(204);
    const again = await uploaded(
      agency,
      { company_id: harel, statement_date: '2026-03-31', total_amount: '585.00' },
      csv(MARCH),
    );
    const againUrl = `/api/commission-statements/${again.id}/`;
    const unconfirmed = await agency.as.post(`${againUrl}accept/`);
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().detail).toMatch(/^1 line was matched by name and premium/);

    const confirmed = await ok<StatementLine>(agency.as.patch(`${againUrl}lines/4/`, { confirmed: true }));
    expect(confirmed).toMatchObject({ confirmed: true, match_method: 'fuzzy' });
    // The unknown number is the broker's to match: to a Harel policy only.
    const toClal = await agency.as.patch(`${againUrl}lines/5/`, { policy_id: book.clals.id });
    expect(toClal.statusCode).toBe(404);
    expect(
      await ok<StatementLine>(
        agency.as.patch(`${againUrl}lines/5/`, { policy_id: book.leftOff.id, note: 'Typo' }),
      ),
    ).toMatchObject({
      match_method: 'manual',
      policy_number: 'HX-4001',
      outcome: 'short_paid',
      note: 'Typo',
    });

    // Clal's policy on Harel's statement is another agency's business as far as Harel goes.
    await ok(agency.as.put(`${againUrl}lines/7/resolution/`, { resolution: 'not_ours' }));
    const accepted = await ok<CommissionStatementDetail>(agency.as.post(`${againUrl}accept/`));
    expect(accepted.status).toBe('accepted');
    expect(accepted.accepted_at).not.toBeNull();
    expect((await agency.as.patch(`${againUrl}lines/2/`, { note: 'x' })).statusCode).toBe(409);
    // Each policy shows what the insurer paid on it, beside what it expected.
    const yossis = await ok<{ insurer_paid_commission: string; expected_commission: string }>(
      agency.as.get(`/api/policies/${book.yossi.id}/`),
    );
    expect(yossis).toMatchObject({ insurer_paid_commission: '200.00', expected_commission: '240.00' });
    const cancelled = await ok<{ results: { id: string; insurer_paid_commission: string }[] }>(
      agency.as.get('/api/policies/?search=HX-3001'),
    );
    expect(cancelled.results.map((row) => row.insurer_paid_commission)).toEqual(['-25.00']);

    // A second statement for the same period: Harel pays the 40.00 it short paid on HX-2001.
    const topUp = await uploaded(
      agency,
      { company_id: harel, statement_date: '2026-03-31', total_amount: '40.00' },
      csv([HEADER, ['HX-2001', 'Yossi Cohen', '2400.00', '40.00', '2026-03-31']]),
    );
    expect(lineNumbered(topUp, 2)).toMatchObject({ expected_commission: '40.00', outcome: 'matched' });

    // Reopened, the first statement's receipts are gone: 240.00 is owed again.
    expect((await ok<CommissionStatementDetail>(agency.as.post(`${againUrl}reopen/`))).status).toBe('review');
    const reread = await ok<CommissionStatementDetail>(
      agency.as.get(`/api/commission-statements/${topUp.id}/`),
    );
    expect(lineNumbered(reread, 2)).toMatchObject({ expected_commission: '240.00', outcome: 'short_paid' });
    expect(
      (await ok<{ insurer_paid_commission: string }>(agency.as.get(`/api/policies/${book.yossi.id}/`)))
        .insurer_paid_commission,
    ).toBe('0.00');

    const list = await ok<{ count: number; results: { id: string }[] }>(
      agency.as.get(`/api/commission-statements/?company_id=${harel}`),
    );
    expect(list.count).toBe(2);
  });

  it('confirms the fuzzy matches at once, those above a confidence or all', async () => {
    const agency = await signedInAgency(t.app);
    const book = await harelBook(agency);
    // Found by name and premium alone: Rina's name exactly, Yossi's misspelt.
    const statement = await uploaded(
      agency,
      { company_id: book.parties.harel.id, statement_date: '2026-03-31', total_amount: '310.00' },
      csv([
        HEADER,
        ['', 'Rina Azulay', '1005.00', '110.00', ''],
        ['', 'Yossi Cohn', '2400.00', '200.00', ''],
      ]),
    );
    expect(statement.lines.map((line) => [line.policy_number, line.match_method, line.confirmed])).toEqual([
      ['HX-2002', 'fuzzy', false],
      ['HX-2001', 'fuzzy', false],
    ]);
    expect(lineNumbered(statement, 2).confidence).toBe('1.00');
    expect(Number(lineNumbered(statement, 3).confidence)).toBeLessThan(1);
    const url = `/api/commission-statements/${statement.id}/`;
    const confirm = (body: Record<string, string>) => agency.as.post(`${url}confirm-matches/`, body);
    expect((await confirm({ min_confidence: '1.5' })).statusCode).toBe(400);
    expect(await ok(confirm({ min_confidence: '0.99' }))).toEqual({ confirmed: 1 });
    expect((await ok<CommissionStatementDetail>(agency.as.get(url))).unconfirmed).toBe(1);
    expect(await ok(confirm({}))).toEqual({ confirmed: 1 });
    const after = await ok<CommissionStatementDetail>(agency.as.get(url));
    expect(after.unconfirmed).toBe(0);
    expect(lineNumbered(after, 3)).toMatchObject({ confirmed: true, match_method: 'fuzzy' });
    await ok(agency.as.post(`${url}accept/`));
    expect((await confirm({})).statusCode).toBe(409);
  });

  it('owes a pro-rata insurer the commission of the instalments due, whatever the customer paid', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    // Clal pays 12.5% pro rata: on 2,400.00 quarterly, 300.00 in all, 75.00 an instalment.
    await policyOf(agency.as, parties, 'CL-77', parties.dana, {
      company_id: parties.clal.id,
      total_premium: '2400.00',
      payment_frequency: 'quarterly',
    });
    const statement = await uploaded(
      agency,
      { company_id: parties.clal.id, statement_date: '2026-04-15', total_amount: '150.00' },
      csv([
        ['Policy', 'Commission'],
        ['CL 77', '150.00'],
      ]),
    );
    // Due by 15 April: January's and April's.
    expect(lineNumbered(statement, 2)).toMatchObject({ expected_commission: '150.00', outcome: 'matched' });
  });

  it('asks for the columns it cannot tell, remembers them for the insurer, and refuses what it cannot read', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    await policyOf(agency.as, parties, 'AB-1', parties.dana);
    const fields = { company_id: parties.harel.id, statement_date: '2026-03-31', total_amount: '120.00' };
    const odd = csv([
      ['Ref', 'Amt'],
      ['AB-1', '120.00'],
    ]);
    const unmapped = await upload(agency, fields, odd);
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json()).toEqual({
      detail:
        'Choose the column that holds the Commission and the Policy number (or Insured): the headers do not say.',
      headers: ['Ref', 'Amt'],
      columns: [null, null],
    });
    const mapped = await upload(
      agency,
      { ...fields, columns: JSON.stringify({ Ref: 'policy_number', Amt: 'commission' }) },
      odd,
    );
    expect((await readThrough(agency.as, mapped)).counts.matched).toBe(1);
    // The same file again is refused; another with the same headers maps by the insurer's choice.
    const twice = await upload(
      agency,
      { ...fields, columns: JSON.stringify({ Ref: 'policy_number', Amt: 'commission' }) },
      odd,
    );
    expect(twice.statusCode).toBe(409);
    expect(
      (
        await uploaded(
          agency,
          fields,
          csv([
            ['Ref', 'Amt'],
            ['AB-1', '0.00'],
          ]),
        )
      ).status,
    ).toBe('review');

    const unreadable = await upload(
      agency,
      fields,
      csv([HEADER, ['AB-1', 'Dana', '1200', 'lots', '2026-03-01']]),
    );
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().detail).toBe(
      'Nothing was saved. Row 2: the commission "lots" is not an amount.',
    );
    const all = await ok<{ count: number }>(agency.as.get('/api/commission-statements/'));
    expect(all.count).toBe(2);
  });

  it('reads its dates in the order the file settles, asks when every date fits both, and maps US headers', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    await policyOf(agency.as, parties, 'AB-1', parties.dana);
    const fields = { company_id: parties.harel.id, statement_date: '2026-05-31', total_amount: '120.00' };
    const header = ['Policy Number', 'Insured Name', 'Written Premium', 'Comm %', 'Comm Amt', 'Effective'];
    const file = (date: string, premium = '1200.00') =>
      csv([header, ['AB-1', 'Dana Levi', premium, '10', '120.00', date]]);

    const asked = await upload(agency, fields, file('05/01/2026'));
    expect(asked.statusCode).toBe(400);
    expect(asked.json().date_order).toEqual([
      'The dates in the column "Effective" could be day first or month first (05/01/2026 fits both): choose the date order and upload the file again.',
    ]);
    const confirmed = await uploaded(agency, { ...fields, date_order: 'month_first' }, file('05/01/2026'));
    // "Comm %" is the rate beside the amount, never the commission paid.
    expect(lineNumbered(confirmed, 2)).toMatchObject({
      transaction_date: '2026-05-01',
      paid_commission: '120.00',
      premium: '1200.00',
      policy_number: 'AB-1',
    });

    const settled = await uploaded(agency, fields, file('05/13/2026', '1200.0'));
    expect(lineNumbered(settled, 2).transaction_date).toBe('2026-05-13');
    const refusedOrder = await upload(agency, { ...fields, date_order: 'day_first' }, file('05/14/2026'));
    expect(refusedOrder.json().detail).toBe('Nothing was saved. Row 2: the date "05/14/2026" is not a date.');
  });

  it('refuses amounts too large to keep, naming the row and column, and a total that reads two ways', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    const fields = { company_id: parties.harel.id, statement_date: '2026-03-31', total_amount: '100.00' };
    const huge = await upload(
      agency,
      fields,
      csv([
        HEADER,
        ['AB-1', 'Dana', '1200', '100.00', '2026-03-01'],
        ['AB-2', 'Dana', '1234567890123', '100.00', '2026-03-01'],
        ['AB-3', 'Dana', '1200', '-9999999999999.00', '2026-03-01'],
      ]),
    );
    expect(huge.statusCode, huge.body).toBe(400);
    expect(huge.json().detail).toBe(
      'Nothing was saved. Row 3: the premium "1234567890123" is too large for an amount. ' +
        'Row 4: the commission "-9999999999999.00" is too large for an amount.',
    );
    // Twelve digits are the most a money column keeps, and they are kept.
    const largest = await upload(
      agency,
      { ...fields, total_amount: '999999999999.99' },
      csv([HEADER, ['AB-1', 'Dana', '999999999999.99', '999999999999.99', '2026-03-01']]),
    );
    expect((await readThrough(agency.as, largest)).lines_total).toBe('999999999999.99');

    const file = csv([HEADER, ['AB-5', 'Dana', '1200', '1.00', '2026-03-01']]);
    for (const [total, readings] of [
      ['1.000', '1000 or 1.00'],
      ['€1,250', '1250 or 1.25'],
    ] as const) {
      const ambiguous = await upload(agency, { ...fields, total_amount: total }, file);
      expect(ambiguous.statusCode).toBe(400);
      expect(ambiguous.json()).toEqual({
        total_amount: [`“${total}” could be ${readings}: write the total as one of them.`],
      });
    }
    // One reading only: grouped twice, with decimals, or three decimals that no amount has.
    for (const [index, total] of ['1.000.000', '1,000.00', '12,345'].entries()) {
      const line = csv([HEADER, [`AB-${6 + index}`, 'Dana', '1200', '1.00', '2026-03-01']]);
      const response = await upload(agency, { ...fields, total_amount: total }, line);
      expect(response.statusCode, `${total}: ${response.body}`).toBe(202);
    }
  });

  it("is the agency's own: another agency's insurer and statements answer 404, agents and viewers only read", async () => {
    const agency = await signedInAgency(t.app);
    const other = await signedInAgency(t.app);
    const book = await harelBook(agency);
    const theirs = await addBookParties(other.as);
    const fields = { statement_date: '2026-03-31', total_amount: '585.00' };
    expect((await upload(agency, { ...fields, company_id: theirs.harel.id }, csv(MARCH))).statusCode).toBe(
      404,
    );
    const statement = await uploaded(agency, { ...fields, company_id: book.parties.harel.id }, csv(MARCH));
    const url = `/api/commission-statements/${statement.id}/`;
    expect((await other.as.get(url)).statusCode).toBe(404);
    expect((await other.as.post(`${url}accept/`)).statusCode).toBe(404);
    expect((await other.as.delete(url)).statusCode).toBe(404);
    expect((await ok<{ count: number }>(other.as.get('/api/commission-statements/'))).count).toBe(0);

    const agent = await addTeamMember(t.app, agency, 'agent');
    expect((await agent.as.get(url)).statusCode).toBe(200);
    expect((await agent.as.post(`${url}accept/`)).statusCode).toBe(403);
    expect((await agent.as.patch(`${url}lines/4/`, { confirmed: true })).statusCode).toBe(403);
  });
});
