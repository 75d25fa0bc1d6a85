import { describe, expect, it } from 'vitest';
import { producerQuery } from './producer-query.js';

describe("the producers' query", () => {
  it("takes the report's period and insurer, under the names the producers' view reads", () => {
    expect(
      producerQuery({
        start_date: '2026-01-01',
        end_date: '2026-03-31',
        company_id: 'c1',
        policy_type_id: 't1',
        payment_status: 'Paid',
        search: 'Levi',
        ordering: '-start_date',
      }),
    ).toEqual({ date_from: '2026-01-01', date_to: '2026-03-31', company_id: 'c1' });
    expect(producerQuery({ ordering: '-start_date' })).toEqual({});
  });
});
