import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthsBefore, seedAgencyHistory } from '../../../test/billing-history.js';
import { apiAs, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';

// Churn and new revenue are read month by month, from where each agency's subscription stood at the
// month's end: an agency that cancels and takes it back within the month never stopped paying.
// Prices: Starter 29.99, Professional 79.99, Agency 199.99 a month.

let t: TestApp;
let admin: ReturnType<typeof apiAs>;

const now = new Date();
const monthsAgo = (back: number, day?: number) => monthsBefore(now, back, day);
const label = (back: number) => monthsAgo(back).toISOString().slice(0, 7);

interface RevenueMonth {
  month: string;
  mrr: string;
  arr: string;
  new_mrr: string;
  expansion: string;
  contraction: string;
  churned: string;
}

async function revenueIn(back: number): Promise<RevenueMonth | undefined> {
  const response = await admin.get('/api/admin/revenue/');
  expect(response.statusCode).toBe(200);
  return response.json().months.find((month: RevenueMonth) => month.month === label(back));
}

/** How many subscriptions the dashboard's "Ended" column counts in a month. */
async function endedIn(back: number): Promise<number | undefined> {
  const response = await admin.get('/api/admin/dashboard/');
  expect(response.statusCode).toBe(200);
  return response.json().months.find((month: { month: string }) => month.month === label(back))?.churned;
}

beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  admin = apiAs(
    t.app,
    (await registerAgency(t.app, { email: 'ops@coverdesk.test', company_name: 'Coverdesk Ops' })).access,
  );
  const { db } = t.database;
  // Two months ago: a paying agency cancels at period end, thinks again and takes it back.
  await seedAgencyHistory(db, 'Steady Cover', monthsAgo(4, 1), [
    { at: monthsAgo(4, 5), type: 'upgraded', status: 'active', plan: 'starter', cycle: 'monthly' },
    { at: monthsAgo(2, 10), type: 'cancellation_scheduled', status: 'cancelled' },
    { at: monthsAgo(2, 20), type: 'reactivated', status: 'active' },
  ]);
  // Its paid period runs across the month's end: cancelled at period end late in one month and taken
  // back early in the next, it never stopped paying either.
  await seedAgencyHistory(db, 'Turn Of The Month Cover', monthsAgo(4, 1), [
    { at: monthsAgo(4, 5), type: 'upgraded', status: 'active', plan: 'starter', cycle: 'monthly' },
    { at: monthsAgo(2, 27), type: 'cancellation_scheduled', status: 'cancelled' },
    { at: monthsAgo(1, 3), type: 'reactivated', status: 'active' },
  ]);
  // A month ago: one agency buys, cancels and takes it back; one that paid leaves; one starts paying.
  await seedAgencyHistory(db, 'Second Thoughts Brokers', monthsAgo(1, 1), [
    { at: monthsAgo(1, 5), type: 'upgraded', status: 'active', plan: 'starter', cycle: 'monthly' },
    { at: monthsAgo(1, 10), type: 'cancellation_scheduled', status: 'cancelled' },
    { at: monthsAgo(1, 20), type: 'reactivated', status: 'active' },
  ]);
  await seedAgencyHistory(db, 'Gone Insurance', monthsAgo(4, 1), [
    { at: monthsAgo(4, 5), type: 'upgraded', status: 'active', plan: 'professional', cycle: 'monthly' },
    { at: monthsAgo(1, 10), type: 'cancelled', status: 'cancelled' },
  ]);
  await seedAgencyHistory(db, 'Fresh Start Agency', monthsAgo(1, 1), [
    { at: monthsAgo(1, 12), type: 'upgraded', status: 'active', plan: 'agency', cycle: 'monthly' },
  ]);
});
afterAll(() => t.close());

describe('revenue movements across a month', () => {
  it('counts an agency that cancels and reactivates within the month as neither churned nor new', async () => {
    expect(await revenueIn(2)).toEqual({
      month: label(2),
      mrr: '139.97',
      arr: '1679.64',
      new_mrr: '0.00',
      expansion: '0.00',
      contraction: '0.00',
      churned: '0.00',
    });
    expect(await endedIn(2)).toBe(0);
  });

  it('counts a cancellation taken back within its paid period, across the month end, as neither', async () => {
    // Turn Of The Month Cover cancelled at period end two months ago and took it back a month ago.
    expect(await revenueIn(2)).toMatchObject({ churned: '0.00', new_mrr: '0.00' });
    expect(await revenueIn(1)).toMatchObject({ new_mrr: '229.98', churned: '79.99' });
    expect(await endedIn(2)).toBe(0);
  });

  it('counts an agency that cancels for good as churn, and only it', async () => {
    // Second Thoughts Brokers cancelled the same month too, and took it back.
    expect(await revenueIn(1)).toMatchObject({ churned: '79.99', contraction: '0.00' });
    expect(await endedIn(1)).toBe(1);
  });

  it('counts an agency that starts paying as new revenue, once', async () => {
    // Fresh Start 199.99, and Second Thoughts 29.99 once, though it cancelled and came back.
    const lastMonth = await revenueIn(1);
    expect(lastMonth).toMatchObject({ new_mrr: '229.98', expansion: '0.00' });
    // 139.97 + 229.98 - 79.99: the month's MRR is the one before it, moved.
    expect(lastMonth?.mrr).toBe('289.96');
  });
});
