import type { CommissionStatementDetail, StatementLine } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookParties, type Caller, ok } from '../../../test/book-parties.js';
import { readThrough, uploadStatement } from '../../../test/statement-upload.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Parties = Awaited<ReturnType<typeof addBookParties>>;

const HEADER = 'Policy No.,Insured Name,Commission,Transaction Date';

/** The statement of `companyId` dated `day`, its lines `[policy, commission, date]`, in review. */
async function uploaded(
  agency: Agency,
  companyId: string,
  day: string,
  lines: [string, string, string][],
  total?: string,
) {
  const sum = lines.reduce((cents, [, amount]) => cents + Math.round(Number(amount) * 100), 0);
  const file = Buffer.from(`${[HEADER, ...lines.map(([p, a, d]) => `${p},,${a},${d}`)].join('\r\n')}\r\n`);
  return readThrough(
    agency.as,
    await uploadStatement(
      t.app,
      agency.access,
      { company_id: companyId, statement_date: day, total_amount: total ?? (sum / 100).toFixed(2) },
      file,
      `statement-${day}.csv`,
    ),
  );
}

const policy = (as: Caller, parties: Parties, policy_number: string, body: Record<string, unknown>) =>
  ok<{ id: string }>(
    as.post('/api/policies/', {
      policy_number,
      customer_id: parties.dana,
      company_id: parties.harel.id,
      policy_type_id: parties.motor.id,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      total_premium: '1200.00',
      ...body,
    }),
    201,
  );

const read = (agency: Agency, id: string, query = '') =>
  ok<CommissionStatementDetail>(agency.as.get(`/api/commission-statements/${id}/${query}`));

describe('a statement’s review', () => {
  it('lists as missing every policy owed by its date and not yet paid, whatever month it fell due', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    // Harel pays 10% once a term starts.
    await policy(agency.as, parties, 'AB-1', {});
    const leftOff = await policy(agency.as, parties, 'AB-2', {
      start_date: '2026-01-15',
      total_premium: '2400.00',
    });
    await policy(agency.as, parties, 'AB-3', { start_date: '2026-03-05', total_premium: '500.00' });
    await policy(agency.as, parties, 'AB-4', { start_date: '2026-04-10', end_date: '2027-04-09' });
    // Clal pays 12.5% pro rata: 300.00 on 2,400.00 quarterly, 75.00 an instalment (1 Jan, 1 Apr, ...).
    const quarterly = await policy(agency.as, parties, 'CL-77', {
      company_id: parties.clal.id,
      total_premium: '2400.00',
      payment_frequency: 'quarterly',
    });
    await policy(agency.as, parties, 'CL-88', { company_id: parties.clal.id, total_premium: '800.00' });

    // January's statement paid AB-1 and left AB-2 off on purpose.
    const january = await uploaded(agency, parties.harel.id, '2026-01-31', [
      ['AB-1', '120.00', '2026-01-05'],
    ]);
    expect(january.missing.map((each) => each.policy_number)).toEqual(['AB-2']);
    await ok(agency.as.post(`/api/commission-statements/${january.id}/accept/`));

    // March's names AB-3 only: AB-2, owed since January, is still missing; AB-4 starts after it.
    const march = await uploaded(agency, parties.harel.id, '2026-03-31', [['AB-3', '50.00', '2026-03-05']]);
    expect(march.missing).toEqual([
      {
        policy_id: leftOff.id,
        policy_number: 'AB-2',
        customer_name: 'Dana Levi',
        expected_commission: '240.00',
        due_since: '2026-01-15',
      },
    ]);
    expect(march.counts.missing).toBe(1);

    // Clal paid January's instalment of CL-77; by 30 April it owes April's, due since 1 April.
    const clalJanuary = await uploaded(agency, parties.clal.id, '2026-01-31', [
      ['CL-77', '75.00', '2026-01-10'],
    ]);
    await ok(agency.as.post(`/api/commission-statements/${clalJanuary.id}/accept/`));
    const clalApril = await uploaded(agency, parties.clal.id, '2026-04-30', [
      ['CL-88', '100.00', '2026-04-02'],
    ]);
    expect(clalApril.missing).toEqual([
      {
        policy_id: quarterly.id,
        policy_number: 'CL-77',
        customer_name: 'Dana Levi',
        expected_commission: '75.00',
        due_since: '2026-04-01',
      },
    ]);
  });

  it('corrects the typed total while in review, audited, and refuses once accepted', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    await policy(agency.as, parties, 'AB-1', {});
    const statement = await uploaded(
      agency,
      parties.harel.id,
      '2026-03-31',
      [['AB-1', '120.00', '2026-03-01']],
      '12.00',
    );
    const url = `/api/commission-statements/${statement.id}/`;
    expect((await agency.as.post(`${url}accept/`)).json().detail).toBe(
      "The statement's total is 12.00 but its lines add up to 120.00. Correct the total before accepting.",
    );

    const ambiguous = await agency.as.patch(url, { total_amount: '1.200' });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toEqual({
      total_amount: ['“1.200” could be 1200 or 1.20: write the total as one of them.'],
    });
    expect((await agency.as.patch(url, {})).statusCode).toBe(400);
    const corrected = await ok<CommissionStatementDetail>(agency.as.patch(url, { total_amount: '120' }));
    expect(corrected).toMatchObject({ total_amount: '120.00', lines_total: '120.00', status: 'review' });

    const log = await ok<{ results: { action: string; entity_id: string; changes: unknown }[] }>(
      agency.as.get('/api/user/profile/audit/?page_size=100'),
    );
    expect(log.results.filter((entry) => entry.action === 'statement_total_corrected')).toMatchObject([
      { entity_id: statement.id, changes: { total_amount: { before: '12.00', after: '120.00' } } },
    ]);

    await ok(agency.as.post(`${url}accept/`));
    const afterAccept = await agency.as.patch(url, { total_amount: '100.00' });
    expect(afterAccept.statusCode).toBe(409);
    expect(afterAccept.json().detail).toBe('This statement is accepted: reopen it to change its total.');
    expect((await read(agency, statement.id)).total_amount).toBe('120.00');
  });

  it('warns before accepting lines that repeat an accepted statement’s, whatever the file', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    const ab1 = await policy(agency.as, parties, 'AB-1', {});
    await policy(agency.as, parties, 'AB-2', {});
    const first = await uploaded(agency, parties.harel.id, '2026-03-31', [
      ['AB-1', '60.00', '2026-03-01'],
      ['AB-2', '60.00', ''],
    ]);
    await ok(agency.as.post(`/api/commission-statements/${first.id}/accept/`));

    // Another file: AB-1's line again (written differently), one of another date, and AB-2's again
    // without a date, which could as well be the next regular payment.
    const second = await uploaded(agency, parties.harel.id, '2026-04-30', [
      ['ab 1', '60.00', '2026-03-01'],
      ['AB-1', '60.00', '2026-04-01'],
      ['AB-2', '60.00', ''],
    ]);
    const duplicate = {
      line_number: 2,
      policy_id: ab1.id,
      policy_number: 'AB-1',
      paid_commission: '60.00',
      transaction_date: '2026-03-01',
      accepted_statement_id: first.id,
      accepted_statement_date: '2026-03-31',
      accepted_file_name: 'statement-2026-03-31.csv',
      accepted_line_number: 2,
    };
    expect(second.duplicates).toEqual([duplicate]);
    const url = `/api/commission-statements/${second.id}/`;
    const refused = await agency.as.post(`${url}accept/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'duplicate_lines',
      detail:
        '1 line repeats a line of an accepted statement (same policy, amount and transaction date): check it, then accept anyway if the insurer paid it again.',
      duplicates: [duplicate],
    });
    expect((await agency.as.post(`${url}accept/`, { acknowledge_duplicates: 'yes' })).statusCode).toBe(400);
    const accepted = await ok<CommissionStatementDetail>(
      agency.as.post(`${url}accept/`, { acknowledge_duplicates: true }),
    );
    expect(accepted.status).toBe('accepted');
    // Both were paid: AB-1 shows 180.00 received.
    expect(
      (await ok<{ insurer_paid_commission: string }>(agency.as.get(`/api/policies/${ab1.id}/`)))
        .insurer_paid_commission,
    ).toBe('180.00');
    // Only an accepted statement's lines count as paid: reopened, the first one now repeats the
    // second, and once the second is reopened too, nothing.
    await ok(agency.as.post(`/api/commission-statements/${first.id}/reopen/`));
    expect((await read(agency, first.id)).duplicates.map((each) => each.line_number)).toEqual([2]);
    await ok(agency.as.post(`${url}reopen/`));
    expect((await read(agency, first.id)).duplicates).toEqual([]);
  });

  it('accepts only once each unmatched line is matched, not ours or written off, its total still reconciled', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    const ab1 = await policy(agency.as, parties, 'AB-1', {});
    const ab2 = await policy(agency.as, parties, 'AB-2', {});
    const statement = await uploaded(agency, parties.harel.id, '2026-03-31', [
      ['AB-1', '120.00', '2026-03-01'],
      ['ZZ-1', '30.00', '2026-03-01'],
      ['ZZ-2', '20.00', '2026-03-01'],
    ]);
    expect(statement).toMatchObject({ total_amount: '170.00', unresolved: 2, counts: { unmatched: 2 } });
    const url = `/api/commission-statements/${statement.id}/`;
    const accept = () => agency.as.post(`${url}accept/`);
    const resolve = (line: number, body: Record<string, unknown>) =>
      agency.as.put(`${url}lines/${line}/resolution/`, body);
    expect((await accept()).json()).toEqual({
      detail:
        '2 unmatched lines are unresolved: match each to a policy, mark it not ours, or write it off with the reason before accepting.',
    });

    for (const body of [{ resolution: 'written_off' }, { resolution: 'written_off', reason: '  ' }]) {
      const noReason = await resolve(3, body);
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ reason: ['Say why this line is written off.'] });
    }
    expect((await resolve(3, { resolution: 'lost' })).statusCode).toBe(400);
    expect(
      await ok<StatementLine>(resolve(3, { resolution: 'written_off', reason: 'Old policy, closed book' })),
    ).toMatchObject({
      outcome: 'unmatched',
      resolution: 'written_off',
      resolution_reason: 'Old policy, closed book',
    });
    expect((await accept()).json().detail).toMatch(/^1 unmatched line is unresolved/);
    // A matched line is not for writing off: its policy says where the money went.
    expect((await resolve(2, { resolution: 'not_ours' })).statusCode).toBe(409);

    // Marked not ours, then taken back: it waits again, and the filter finds it.
    await ok(resolve(4, { resolution: 'not_ours' }));
    expect(await ok<StatementLine>(agency.as.delete(`${url}lines/4/resolution/`))).toMatchObject({
      resolution: null,
      resolution_reason: '',
    });
    const waiting = await read(agency, statement.id, '?outcome=unresolved');
    expect(waiting.lines.map((line) => line.line_number)).toEqual([4]);
    // Matched to a policy, the line is no longer written off.
    expect(await ok<StatementLine>(agency.as.patch(`${url}lines/3/`, { policy_id: ab2.id }))).toMatchObject({
      policy_number: 'AB-2',
      resolution: null,
    });
    await ok(agency.as.patch(`${url}lines/3/`, { policy_id: null }));
    await ok(resolve(3, { resolution: 'written_off', reason: 'Old policy, closed book' }));
    await ok(resolve(4, { resolution: 'not_ours' }));

    const accepted = await ok<CommissionStatementDetail>(accept());
    // The typed total is the lines' whatever their resolution; only the matched line is a receipt.
    expect(accepted).toMatchObject({ status: 'accepted', total_amount: '170.00', lines_total: '170.00' });
    expect(
      (await ok<{ insurer_paid_commission: string }>(agency.as.get(`/api/policies/${ab1.id}/`)))
        .insurer_paid_commission,
    ).toBe('120.00');
    expect(
      (await ok<{ insurer_paid_commission: string }>(agency.as.get(`/api/policies/${ab2.id}/`)))
        .insurer_paid_commission,
    ).toBe('0.00');
    expect((await resolve(4, { resolution: 'written_off', reason: 'x' })).statusCode).toBe(409);
    expect((await agency.as.delete(`${url}lines/3/resolution/`)).statusCode).toBe(409);
  });
});
