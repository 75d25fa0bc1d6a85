import { type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { acceptStatement, createStatement } from './queries.js';
import type { StatementFileLine } from './read-lines.js';

// The demo agency's last two months from one insurer: a statement accepted and one in review that
// shows every outcome, built from the demo's own policies so its figures are those the policy pages show.

type DemoTerm = {
  policy_number: string;
  customer_name: string;
  total_premium: string;
  start_date: string;
  owed: string;
};

/** Commission in cents, as a statement line writes it. */
const amount = (cents: number) => (cents / 100).toFixed(2);
const toCents = (money: string) => Math.round(Number(money) * 100);

/** Terms a demo statement lists: enough for every outcome of the one in review. */
const TERMS_PER_STATEMENT = 8;

/**
 * Two statements from the full-policy insurer with the most terms started in the last six months:
 * last month's in review, and the month before's accepted, so the insurer is reconciled and what it
 * still owes shows by age on the commission report. The one in review lists the insurer's latest
 * terms started by last month's end, the accepted one the terms started before those (and by its
 * own date): most paid in full, one short by a tenth; the one in review also one over, one named only
 * by its insured and premium (a fuzzy match to confirm), one the agency does not know. The latest
 * terms rather than a month's: an insurer writes a few new terms a month in the demo, too few some
 * months for every outcome, and the book is drawn anew each day.
 */
export async function seedDemoStatement(tx: Transaction, tenantId: string, day: string) {
  const { rows: dates } = await tx.execute<{ last_month: string; month_before: string; since: string }>(
    sql`select (date_trunc('month', ${day}::date) - interval '1 day')::date::text as last_month,
      (date_trunc('month', ${day}::date) - interval '1 month' - interval '1 day')::date::text as month_before,
      (date_trunc('month', ${day}::date) - interval '6 months' - interval '1 day')::date::text as since`,
  );
  const { last_month, month_before, since } = dates[0] ?? { last_month: day, month_before: day, since: day };
  const { rows: insurers } = await tx.execute<{ id: string }>(sql`
    select c.id from companies c join policies p on p.company_id = c.id
    where c.commission_payment_method = 'full_policy' and p.cancelled_at is null
      and p.start_date > ${since}::date and p.start_date <= ${last_month}::date
    group by c.id order by count(*) desc, c.id limit 1`);
  const companyId = insurers[0]?.id;
  if (!companyId) return;
  const inReview = await latestTerms(tx, companyId, sql`p.start_date <= ${last_month}::date`);
  const firstInReview = inReview[0]?.start_date ?? last_month;
  const accepted = await latestTerms(
    tx,
    companyId,
    sql`p.start_date <= ${month_before}::date and p.start_date < ${firstInReview}::date`,
  );
  const earlier = await seedStatement(tx, tenantId, companyId, accepted, month_before, false);
  await acceptStatement(tx, tenantId, earlier, null);
  await seedStatement(tx, tenantId, companyId, inReview, last_month, true);
}

/** The insurer's latest live terms whose start meets `started`, oldest first. */
async function latestTerms(tx: Transaction, companyId: string, started: SQL) {
  const { rows } = await tx.execute<DemoTerm>(sql`
    select p.policy_number, cu.display_name as customer_name, p.total_premium::text, p.start_date::text,
      policy_earned_commission(p.net_premium, p.commission_percentage, p.total_premium,
        policy_earned_premium(p.total_premium, p.start_date, p.end_date, p.cancelled_at, p.cancellation_refund))::text as owed
    from policies p join customers cu on cu.id = p.customer_id
    where p.company_id = ${companyId}::uuid and p.cancelled_at is null and ${started}
    order by p.start_date desc, p.policy_number desc limit ${TERMS_PER_STATEMENT}`);
  return rows.reverse();
}

/** The insurer's statement, dated `statementDate`, of `terms`; answers its id. */
async function seedStatement(
  tx: Transaction,
  tenantId: string,
  companyId: string,
  terms: DemoTerm[],
  statementDate: string,
  everyOutcome: boolean,
) {
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
