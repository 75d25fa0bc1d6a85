import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { companies } from '../companies/tables.js';
import { installments, insurerReceipts, policies } from './tables.js';

// What a policy earns, through the database functions that define it (migrations 0009 and
// 0056_cancelled-instalments), so that lists, totals and the commission report sum exactly what each
// policy shows, and the kept totals' triggers sum the same. docs/figures.md says it in words.

/** The premium the term earns if cancelled on `cancelledAt` (null: not), with the `refund` entered. */
const earnedPremiumIf = (cancelledAt: SQLWrapper, refund: SQLWrapper) =>
  sql<string>`policy_earned_premium(${policies.totalPremium}, ${policies.startDate}, ${policies.endDate}, ${cancelledAt}, ${refund})`;

/** Net premium x commission % / 100, to the cent (half-up), in the share `earned` is of the premium. */
const commissionOn = (earned: SQLWrapper) =>
  sql<string>`policy_earned_commission(${policies.netPremium}, ${policies.commissionPercentage}, ${policies.totalPremium}, ${earned})`;

/**
 * The premium the term earns: all of it, unless cancelled or ended early by its renewal; then the
 * premium less the refund the broker entered, or else the premium for the days of cover (start to the
 * day before the cancellation).
 */
export const earnedPremium: SQL<string> = earnedPremiumIf(policies.cancelledAt, policies.cancellationRefund);

/**
 * Net premium x commission % / 100, to the cent (half-up); for a cancelled term, the same share of it
 * as the earned premium is of the premium.
 */
export const expectedCommission: SQL<string> = commissionOn(earnedPremium);

/**
 * What the term earns if a renewal from `renewalStart` ends it the day before, as a cancellation on
 * that day would, with no refund: what the renew form tells the broker before saving.
 */
export const earnedIfRenewedFrom = (renewalStart: SQLWrapper) => {
  const premium = earnedPremiumIf(renewalStart, sql`null`);
  return { earned_premium: premium, expected_commission: commissionOn(premium) };
};

/**
 * What the insurer owes once `paid` of the premium has come in. Full policy: the expected commission
 * once the earned premium is paid, else nothing. Pro rata: the expected commission x paid / earned
 * premium, to the cent, at most the expected commission. Needs `companies` joined to the policy's insurer.
 */
export const receivedCommissionOn = (paid: SQLWrapper): SQL<string> =>
  sql<string>`policy_received_commission(${companies.commissionPaymentMethod}, ${expectedCommission}, ${paid}, ${earnedPremium})`;

/** What the insurer owes so far, on what the policy has been paid. */
export const receivedCommission: SQL<string> = receivedCommissionOn(policies.amountPaid);

/**
 * What a kept total (book totals, history months, customer totals) says the insurer owes, under its
 * payout method as it is today: the triggers sum the received commission under both. Needs
 * `companies` joined to the total's insurer.
 */
export const keptReceivedCommission = (kept: {
  receivedFullPolicy: SQLWrapper;
  receivedProRata: SQLWrapper;
}) =>
  sql<string>`case when ${companies.commissionPaymentMethod} = 'pro_rata'
    then ${kept.receivedProRata} else ${kept.receivedFullPolicy} end`;

/**
 * What the insurer owes on the policy by `day`, whatever the customer has paid so far: under
 * full-policy payout the term's (earned) commission once the term has started; under pro rata the
 * commission of `dueBy`, the instalments due by then, as `receivedCommissionOn` takes it on what is
 * paid. Needs `companies` joined to the policy's insurer.
 */
export const insurerOwesBy = (day: SQLWrapper, dueBy: SQLWrapper): SQL<string> =>
  sql<string>`case when ${companies.commissionPaymentMethod} = 'pro_rata' then ${receivedCommissionOn(dueBy)}
    when ${policies.startDate} <= ${day} then ${expectedCommission} else 0 end`;

/** What the policy's customer was due to pay by `day`: its instalments due by then, cancelled ones aside. */
export const dueBy = (day: SQLWrapper): SQL<string> =>
  sql<string>`(select coalesce(sum(${installments.amountDue}), 0) from ${installments}
    where ${installments.tenantId} = ${policies.tenantId} and ${installments.policyId} = ${policies.id}
      and ${installments.dueDate} <= ${day} and ${installments.status} <> 'cancelled')`;

/**
 * What the insurer has paid on the policy: the receipts its accepted commission statements recorded
 * (modules/commission-statements), chargebacks negative.
 */
export const insurerPaidCommission: SQL<string> = sql<string>`(select coalesce(sum(${insurerReceipts.amount}), 0)::numeric(14, 2)
  from ${insurerReceipts} where ${insurerReceipts.tenantId} = ${policies.tenantId}
    and ${insurerReceipts.policyId} = ${policies.id})`;

/**
 * "Owed by insurer" (docs/figures.md) today, the agency's day: what the insurer owes on the policy by
 * now less what its accepted statements paid; negative when the insurer paid more. Needs `companies`
 * joined to the policy's insurer.
 */
export const owedByInsurer: SQL<string> = sql<string>`(${insurerOwesBy(sql`current_date`, dueBy(sql`current_date`))} - ${insurerPaidCommission})`;
