import { type SQL, sql } from 'drizzle-orm';
import { companies } from '../companies/tables.js';
import { policies } from './tables.js';

// The one definition of what a policy earns, in SQL so that lists, stats and the commission report
// sum exactly what each policy shows. PostgreSQL's round() on numeric rounds halves away from zero,
// which for these non-negative amounts is half-up.

/** Net premium x commission % / 100, to the cent. */
export const expectedCommission: SQL<string> = sql<string>`round(${policies.netPremium} * ${policies.commissionPercentage} / 100, 2)`;

/**
 * What the insurer owes so far. Full policy: the expected commission once the whole premium is
 * paid, else nothing. Pro rata: the expected commission x amount paid / total premium, to the cent.
 * Needs `companies` joined to the policy's insurer.
 */
export const receivedCommission: SQL<string> = sql<string>`case
  when ${companies.commissionPaymentMethod} = 'pro_rata'
    then round(${expectedCommission} * ${policies.amountPaid} / ${policies.totalPremium}, 2)
  when ${policies.amountPaid} >= ${policies.totalPremium} then ${expectedCommission}
  else 0.00
end`;
