import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { companies } from '../companies/tables.js';
import { policies } from './tables.js';

// What a policy earns, through the database functions that define it (migration 0009), so that
// lists, totals and the commission report sum exactly what each policy shows, and the book totals'
// trigger sums the same.

/** Net premium x commission % / 100, to the cent (half-up). */
export const expectedCommission: SQL<string> = sql<string>`policy_expected_commission(${policies.netPremium}, ${policies.commissionPercentage})`;

/**
 * What the insurer owes once `paid` of the premium has come in. Full policy: the expected commission
 * once the whole premium is paid, else nothing. Pro rata: the expected commission x paid / total
 * premium, to the cent. Needs `companies` joined to the policy's insurer.
 */
export const receivedCommissionOn = (paid: SQLWrapper): SQL<string> =>
  sql<string>`policy_received_commission(${companies.commissionPaymentMethod}, ${expectedCommission}, ${paid}, ${policies.totalPremium})`;

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
