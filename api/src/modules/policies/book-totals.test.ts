import type { PolicyStats } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptAndAfresh, statsFromPolicies } from '../../../test/kept-totals.js';
import { createTestApp, PASSWORD, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the book totals', () => {
  it('agree with the policies through every kind of change, and so do the kept history, customer, type and calendar day totals', async () => {
    const { as, user } = await signedInAgency(t.app);
    const ok = async (response: Promise<{ statusCode: number; body: string }>, status = 200) => {
      const answer = await response;
      expect(answer.statusCode, answer.body).toBe(status);
      return answer.body ? JSON.parse(answer.body) : undefined;
    };
    // The stats, and the list counts the book answers, against the policies themselves.
    const expectAgreement = async (step: string) => {
      const stats: PolicyStats = await ok(as.get('/api/policies/stats/'));
      expect(stats, step).toEqual(await statsFromPolicies(t.database.db, user.tenant_id));
      const kept = await keptAndAfresh(t.database.db, user.tenant_id);
      expect(kept.kept, `${step}: history, customers, types and calendar days`).toEqual(kept.afresh);
      for (const [status, count] of Object.entries(stats.by_status)) {
        const page = await ok(as.get(`/api/policies/?status=${status}&page_size=100`));
        expect([page.count, page.results.length], `${step}: ${status}`).toEqual([count, count]);
      }
      const expiring = await ok(as.get('/api/policies/?expiring_within_days=30&page_size=100'));
      expect([expiring.count, expiring.results.length]).toEqual([
        stats.expiring_in_30_days,
        stats.expiring_in_30_days,
      ]);
      return stats;
    };

    const motor = await ok(as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }), 201);
    const insurer = await ok(
      as.post('/api/companies/', {
        name: 'Harel',
        commission_payment_method: 'full_policy',
        policy_types: [{ policy_type_id: motor.id, commission_percentage: '12.5' }],
      }),
      201,
    );
    const customer = await ok(as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }), 201);
    const add = (policy_number: string, start_date: string, end_date: string, total_premium: string) =>
      ok(
        as.post('/api/policies/', {
          policy_number,
          customer_id: customer.id,
          company_id: insurer.id,
          policy_type_id: motor.id,
          start_date,
          end_date,
          total_premium,
          payment_frequency: 'quarterly',
        }),
        201,
      );
    await expectAgreement('empty');

    const year = new Date().getUTCFullYear();
    const current = await add('A', `${year - 1}-12-15`, `${year + 1}-01-14`, '1000.01');
    const past = await add('B', `${year - 2}-01-01`, `${year - 2}-12-31`, '333.33');
    const future = await add('C', `${year + 1}-06-01`, `${year + 2}-05-31`, '250.00');
    await expectAgreement('added');

    const {
      results: [first, second],
    } = await ok(as.get(`/api/policies/${current.id}/installments/`));
    await ok(as.post(`/api/installments/${first.id}/payment/`, { payment_method: 'cash' }));
    await ok(as.post(`/api/installments/${second.id}/payment/`, { amount: '10.00', payment_method: 'card' }));
    await expectAgreement('paid');
    await ok(
      as.put(`/api/installments/${second.id}/payment/`, {
        amount_paid: '20.00',
        paid_date: `${year - 1}-12-20`,
        payment_method: 'card',
      }),
    );
    await ok(as.delete(`/api/installments/${second.id}/payment/`));
    await expectAgreement('corrected and undone');

    await ok(
      as.put(`/api/companies/${insurer.id}/`, {
        name: 'Harel',
        commission_payment_method: 'pro_rata',
        policy_types: [{ policy_type_id: motor.id, commission_percentage: '12.5' }],
      }),
    );
    const proRata = await expectAgreement('payout method changed');
    expect(proRata.received_commission).not.toBe('0.00');

    const renewal = await ok(as.post(`/api/policies/${past.id}/renew/`, {}), 201);
    await expectAgreement('renewed');
    // A term not yet started is cancelled on its first day, and earns nothing.
    await ok(
      as.post(`/api/policies/${future.id}/cancel/`, {
        cancelled_at: future.start_date,
        reason: 'Sold the car',
      }),
    );
    const beforeDeletes = await expectAgreement('cancelled');
    expect(beforeDeletes.by_status).toMatchObject({ active: 1, renewed: 1, cancelled: 1 });

    // Deleting the renewal leaves the old term expired again.
    await ok(as.delete(`/api/policies/${renewal.id}/`), 204);
    expect((await expectAgreement('renewal deleted')).by_status).toMatchObject({ renewed: 0, expired: 1 });
    await ok(as.post(`/api/policies/${current.id}/secure-delete/`, { password: PASSWORD }), 204);
    await ok(as.delete(`/api/policies/${past.id}/`), 204);
    await ok(as.delete(`/api/policies/${future.id}/`), 204);
    expect((await expectAgreement('all deleted')).total).toBe(0);
  });
});
