import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { acceptStatement, createStatement } from './queries.js';
import type { StatementFileLine } from './read-lines.js';

// The demo agency's last two months from one insurer: a statement accepted and one in review that
// shows every outcome, built from the demo's own policies so its figures are those the policy pages show.

type DemoTerm = {
  policy_number: string;
  customer_name: string;
  total_premium: string;
  owed: string;
};

/** Commission in cents, as a statement line writes it. */
const amount = (cents: number) => (cents / 100).toFixed(2);
const toCents = (money: string) => Math.round(Number(money) * 100);

/**
 * Two statements from the full-policy insurer with the most terms started in the last three months:
 * last month's in review, and the month before's accepted, so the insurer is reconciled and what it
 * still owes shows by age on the commission report. Each lists the terms started in the three months
 * before the one before it: most paid in full, one short by a tenth; the one in review also one over,
 * one named only by its insured and premium (a fuzzy match to confirm), one the agency does not know,
 * and the terms it leaves out showing as missing. Three months, not one: an insurer writes a few new
 * terms a month in the demo, and the statement in review needs five for its outcomes whatever the day.
 */
export async function seedDemoStatement(tx: Transaction, tenantId: string, day: string) {
  const { rows: dates } = await tx.execute<{
    last_month: string;
    month_before: string;
    review_after: string;
    accepted_after: string;
  }>(
    sql`select (date_trunc('month', ${day}::date) - interval '1 day')::date::text as last_month,
      (date_trunc('month', ${day}::date) - interval '1 month' - interval '1 day')::date::text as month_before,
      (date_trunc('month', ${day}::date) - interval '3 months' - interval '1 day')::date::text as review_after,
      (date_trunc('month', ${day}::date) - interval '6 months' - interval '1 day')::date::text as accepted_after`,
  );
  const { last_month, month_before, review_after, accepted_after } = dates[0] ?? {
    last_month: day,
    month_before: day,
    review_after: day,
    accepted_after: day,
  };
  const { rows: insurers } = await tx.execute<{ id: string }>(sql`
    select c.id from companies c join policies p on p.company_id = c.id
    where c.commission_payment_method = 'full_policy' and p.cancelled_at is null
      and p.start_date > ${review_after}::date and p.start_date <= ${last_month}::date
    group by c.id order by count(*) desc, c.id limit 1`);
  const companyId = insurers[0]?.id;
  if (!companyId) return;
  const earlier = await seedStatement(
    tx,
    tenantId,
    companyId,
    { after: accepted_after, upTo: review_after },
    month_before,
    false,
  );
  await acceptStatement(tx, tenantId, earlier, null);
  await seedStatement(tx, tenantId, companyId, { after: review_after, upTo: last_month }, last_month, true);
}

/** The insurer's statement, dated `statementDate`, of the terms started within `started`; answers its id. */
async function seedStatement(
  tx: Transaction,
  tenantId: string,
  companyId: string,
  started: { after: string; upTo: string },
  statementDate: string,
  everyOutcome: boolean,
) {
  const { rows: terms } = await tx.execute<DemoTerm>(sql`
    select p.policy_number, cu.display_name as customer_name, p.total_premium::text,
      policy_earned_commission(p.net_premium, p.commission_percentage, p.total_premium,
        policy_earned_premium(p.total_premium, p.start_date, p.end_date, p.cancelled_at, p.cancellation_refund))::text as owed
    from policies p join customers cu on cu.id = p.customer_id
    where p.company_id = ${companyId}::uuid and p.cancelled_at is null
      and p.start_date > ${started.after}::date and p.start_date <= ${started.upTo}::date
    order by p.start_date, p.policy_number limit 8`);
  const lines: StatementFileLine[] = terms.map((term, index) => {
    const owed = toCents(term.owed);
    // The third line is short by a tenth; in review, the fourth is over by 15.00 and the fifth named
    // only by its insured.
    const paid = index === 2 ? Math.round(owed * 0.9) : everyOutcome && index === 3 ? owed + 1500 : owed;
    return {
      lineNumber: index + 2,
      rawPolicyNumber: everyOutcome && index === 4 ? '' : term.policy_number.toLowerCase().replace('-', ' '),
      insuredName: term.customer_name,
      premium: term.total_premium,
      paidCommission: amount(paid),
      transactionDate: statementDate,
      transactionType: 'New business',
    };
  });
  if (everyOutcome) {
    lines.push({
      lineNumber: lines.length + 2,
      rawPolicyNumber: 'XT-99120',
      insuredName: 'Unknown to the agency',
      premium: '640.00',
      paidCommission: '64.00',
      transactionDate: statementDate,
      transactionType: 'New business',
    });
  }
  const total = lines.reduce((sum, line) => sum + toCents(line.paidCommission), 0);
  return createStatement(
    tx,
    tenantId,
    {
      companyId,
      statementDate,
      totalAmount: amount(total),
      fileName: `statement-${statementDate}.csv`,
      fileSha256: `demo-${statementDate}`,
      uploadedBy: null,
    },
    lines,
    {},
  );
}
