import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { createStatement } from './queries.js';
import type { StatementFileLine } from './read-lines.js';

// The demo agency's last month from one insurer: a statement in review that shows every outcome,
// built from the demo's own policies so its figures are those the policy pages show.

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
 * A statement dated the last day of the month before `day`, from the full-policy insurer with the
 * most terms started by then: most paid in full, one short, one over, one named only by its
 * insured and premium (a fuzzy match to confirm), one the agency does not know, and the terms it
 * leaves out showing as missing.
 */
export async function seedDemoStatement(tx: Transaction, tenantId: string, day: string) {
  const { rows: dates } = await tx.execute<{ statement_date: string }>(
    sql`select (date_trunc('month', ${day}::date) - interval '1 day')::date::text as statement_date`,
  );
  const statementDate = dates[0]?.statement_date ?? day;
  const { rows: insurers } = await tx.execute<{ id: string }>(sql`
    select c.id from companies c join policies p on p.company_id = c.id
    where c.commission_payment_method = 'full_policy' and p.start_date <= ${statementDate}::date
      and p.cancelled_at is null
    group by c.id order by count(*) desc, c.id limit 1`);
  const companyId = insurers[0]?.id;
  if (!companyId) return;
  const { rows: terms } = await tx.execute<DemoTerm>(sql`
    select p.policy_number, cu.display_name as customer_name, p.total_premium::text,
      policy_earned_commission(p.net_premium, p.commission_percentage, p.total_premium,
        policy_earned_premium(p.total_premium, p.start_date, p.end_date, p.cancelled_at, p.cancellation_refund))::text as owed
    from policies p join customers cu on cu.id = p.customer_id
    where p.company_id = ${companyId}::uuid and p.cancelled_at is null
      and p.start_date > (${statementDate}::date - interval '3 months') and p.start_date <= ${statementDate}::date
    order by p.start_date, p.policy_number limit 8`);
  const lines: StatementFileLine[] = terms.map((term, index) => {
    const owed = toCents(term.owed);
    // The third line is short by a tenth, the fourth over by 15.00, the fifth named only by its insured.
    const paid = index === 2 ? Math.round(owed * 0.9) : index === 3 ? owed + 1500 : owed;
    return {
      lineNumber: index + 2,
      rawPolicyNumber: index === 4 ? '' : term.policy_number.toLowerCase().replace('-', ' '),
      insuredName: term.customer_name,
      premium: term.total_premium,
      paidCommission: amount(paid),
      transactionDate: statementDate,
      transactionType: 'New business',
    };
  });
  lines.push({
    lineNumber: lines.length + 2,
    rawPolicyNumber: 'XT-99120',
    insuredName: 'Unknown to the agency',
    premium: '640.00',
    paidCommission: '64.00',
    transactionDate: statementDate,
    transactionType: 'New business',
  });
  const total = lines.reduce((sum, line) => sum + toCents(line.paidCommission), 0);
  await createStatement(
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
