import type {
  CustomerAnalytics,
  CustomerAnalyticsPeriod,
  PortfolioAnalytics,
  PortfolioHistory,
  PortfolioHistoryMonths,
} from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { agencyToday } from '../../db/tenant.js';
import { commissionThisYear } from '../commission-report/queries.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { overdueTotals } from '../payments/queries.js';
import { keptReceivedCommission } from '../policies/commission.js';
import { overdue } from '../policies/instalments.js';
import { bookStatusIs, expiringWithin, statusIs } from '../policies/status.js';
import {
  bookMonths,
  customerTotals,
  installments,
  policies,
  policyBookTotals,
  policyMonths,
} from '../policies/tables.js';
import { policyTypes } from '../policy-types/tables.js';

// The agency's analytics, each a few set-based statements over its policies and instalments, and
// over what the policy triggers keep of them (the history by month, each customer's lifetime). Every
// figure is built from the policy module's own rules: its status conditions, the commission
// functions and the instalment overdue rule, so a total here is the sum of what the policy pages
// show. `current_date` is the agency's day (withTenant sets its time zone).

/** Money as the API writes it: an exact string with two decimals, 0.00 for an empty sum. */
const money = (amount: SQLWrapper) => sql`round(coalesce((${amount}), 0), 2)::text`;

/** A share in per cent to two decimals, 0.00 when the base is zero. */
const share = (part: SQLWrapper, base: SQLWrapper) =>
  sql`round(case when coalesce((${base}), 0) = 0 then 0 else coalesce((${part}), 0) * 100.0 / (${base}) end, 2)::text`;

/** A policy with its insurer, both of the agency (the composite keys join on the tenant too). */
const policiesOfAgency = (tenantId: string) => sql`${policies}
  join ${companies} on ${companies.tenantId} = ${policies.tenantId} and ${companies.id} = ${policies.companyId}
  where ${policies.tenantId} = ${tenantId}`;

/** Held now: active today, or written to start later (a renewal already agreed counts). */
const current = sql`(${statusIs.active} or ${statusIs.pending})`;

/** Covering the day: within its term and not cancelled by then, whatever happened after. */
const inForceOn = (day: SQLWrapper) =>
  sql`(${policies.startDate} <= ${day} and ${policies.endDate} >= ${day} and (${policies.cancelledAt} is null or ${policies.cancelledAt} > ${day}))`;

/**
 * Settings for this transaction alone. The portfolio and the customers' holdings group the agency's
 * current policies: with PostgreSQL's default 4 MB per sort or hash, a 100,000-policy agency's groups
 * spilled to disk. And the planner's cost of these statements passes its JIT thresholds, so
 * PostgreSQL spent about two seconds compiling each to machine code for a run of a few hundred
 * milliseconds.
 */
const roomToGroup = sql`set_config('work_mem', '32MB', true), set_config('jit', 'off', true)`;

/** Rows of a raw statement, typed by the caller who wrote its columns. */
async function rows<Row>(tx: Transaction, statement: SQL): Promise<Row[]> {
  const result = await tx.execute(statement);
  return result.rows as Row[];
}

// ---------------------------------------------------------------------------------------------

const PERIOD_START: Record<CustomerAnalyticsPeriod, SQL> = {
  '3m': sql`(current_date - interval '3 months')::date`,
  '6m': sql`(current_date - interval '6 months')::date`,
  '12m': sql`(current_date - interval '12 months')::date`,
  ytd: sql`date_trunc('year', current_date)::date`,
};

/** Customers: how many, how new, how loyal, who is worth most, and who owes. */
export async function customerAnalytics(
  tx: Transaction,
  tenantId: string,
  period: CustomerAnalyticsPeriod,
): Promise<CustomerAnalytics> {
  const { today, period_start } = one(
    await rows<{ today: string; period_start: string }>(
      tx,
      sql`select ${roomToGroup}, current_date::text as today, ${PERIOD_START[period]}::text as period_start`,
    ),
  );

  // One row per customer who ever held a policy: lifetime figures as their trigger keeps them, each
  // insurer's commission by its own payout method, and what they hold now and held at the start.
  const lifetime = sql`
    select ${customerTotals.customerId} as customer_id, sum(${customerTotals.policies})::int as policies,
      sum(${customerTotals.totalPremium}) as premium, sum(${customerTotals.expectedCommission}) as expected,
      sum(${keptReceivedCommission(customerTotals)}) as received,
      min(${customerTotals.firstStart}) as first_start
    from ${customerTotals}
    join ${companies} on ${companies.tenantId} = ${customerTotals.tenantId} and ${companies.id} = ${customerTotals.companyId}
    where ${customerTotals.tenantId} = ${tenantId}
    group by ${customerTotals.customerId}`;

  const heldNow = sql`
    select ${policies.customerId} as customer_id, ${policies.companyId} as company_id,
      ${policies.policyTypeId} as policy_type_id
    from ${policies} where ${policies.tenantId} = ${tenantId} and ${current}`;

  const heldAtStart = sql`
    select distinct ${policies.customerId} as customer_id
    from ${policies} where ${policies.tenantId} = ${tenantId} and ${inForceOn(sql`${period_start}::date`)}`;

  const perCustomer = sql`
    select lifetime.*, coalesce(holding.current_policies, 0) as current_policies,
      at_start.customer_id is not null as held_at_start
    from (${lifetime}) lifetime
    left join (select customer_id, count(*)::int as current_policies from held_now group by customer_id) holding
      using (customer_id)
    left join (${heldAtStart}) at_start using (customer_id)`;

  const value = (order: SQL) => sql`coalesce((
    select json_agg(json_build_object(
      'customer_id', ranked.customer_id, 'customer_name', ranked.customer_name,
      'policies', ranked.policies, 'lifetime_premium', ${money(sql`ranked.premium`)},
      'expected_commission', ${money(sql`ranked.expected`)},
      'received_commission', ${money(sql`ranked.received`)}) order by ranked.position)
    from (
      select per_customer.*, ${customers.displayName} as customer_name,
        row_number() over (order by ${order}, ${customers.displayName}, per_customer.customer_id) as position
      from per_customer
      join ${customers} on ${customers.tenantId} = ${tenantId} and ${customers.id} = per_customer.customer_id
      where per_customer.policies > 0
      order by position
      limit 10
    ) ranked), '[]'::json)`;

  const figures = one(
    await rows<Omit<CustomerAnalytics, 'period' | 'period_start' | 'today' | 'inactive_customers'>>(
      tx,
      sql`
    with held_now as materialized (${heldNow}),
    per_customer as materialized (${perCustomer}),
    months as (
      select month::date as first_day
      from generate_series(date_trunc('month', current_date) - interval '11 months',
        date_trunc('month', current_date), interval '1 month') month
    )
    select
      (select count(*) from ${customers} where ${customers.tenantId} = ${tenantId})::int as total_customers,
      (select count(*) from per_customer
        where first_start between ${period_start}::date and current_date)::int as new_customers,
      (select json_agg(json_build_object('month', to_char(months.first_day, 'YYYY-MM'),
          'new_customers', (select count(*) from per_customer
            where first_start >= months.first_day and first_start < months.first_day + interval '1 month'
              and first_start <= current_date)) order by months.first_day)
        from months) as new_per_month,
      (select count(*) from per_customer where current_policies > 0)::int as active_customers,
      json_build_object(
        'base_customers', (select count(*) from per_customer where held_at_start),
        'retained_customers', (select count(*) from per_customer where held_at_start and current_policies > 0),
        'retention_rate', (select ${share(
          sql`count(*) filter (where current_policies > 0)`,
          sql`count(*)`,
        )} from per_customer where held_at_start)
      ) as retention,
      ${value(sql`per_customer.premium desc`)} as top_by_premium,
      ${value(sql`per_customer.expected desc, per_customer.received desc`)} as top_by_commission,
      (select json_build_object(
          'one', count(*) filter (where current_policies = 1),
          'two', count(*) filter (where current_policies = 2),
          'three', count(*) filter (where current_policies = 3),
          'four_or_more', count(*) filter (where current_policies >= 4))
        from per_customer) as policies_per_customer,
      coalesce((select json_agg(json_build_object('policy_type_id', counted.policy_type_id,
          'policy_type_name', ${policyTypes.name}, 'customers', counted.customers)
          order by counted.customers desc, ${policyTypes.name}, counted.policy_type_id)
        from (select policy_type_id, count(*) as customers
          from (select distinct policy_type_id, customer_id from held_now) pairs group by policy_type_id) counted
        join ${policyTypes} on ${policyTypes.tenantId} = ${tenantId} and ${policyTypes.id} = counted.policy_type_id),
        '[]'::json) as by_policy_type,
      coalesce((select json_agg(json_build_object('company_id', counted.company_id,
          'company_name', ${companies.name}, 'customers', counted.customers)
          order by counted.customers desc, ${companies.name}, counted.company_id)
        from (select company_id, count(*) as customers
          from (select distinct company_id, customer_id from held_now) pairs group by company_id) counted
        join ${companies} on ${companies.tenantId} = ${tenantId} and ${companies.id} = counted.company_id),
        '[]'::json) as by_company,
      (select json_build_object(
          'customers', count(distinct ${policies.customerId}),
          'instalments', count(*),
          'amount_overdue', ${money(sql`sum(${installments.amountDue} - ${installments.amountPaid})`)})
        from ${installments}
        join ${policies} on ${policies.tenantId} = ${installments.tenantId} and ${policies.id} = ${installments.policyId}
        where ${installments.tenantId} = ${tenantId} and ${overdue}) as overdue,
      (select json_build_object(
          'customers_with_policies', count(*),
          'total_premium', ${money(sql`sum(premium)`)},
          'average_premium', ${money(sql`sum(premium) / nullif(count(*), 0)`)},
          'average_expected_commission', ${money(sql`sum(expected) / nullif(count(*), 0)`)},
          'average_received_commission', ${money(sql`sum(received) / nullif(count(*), 0)`)})
        from per_customer where policies > 0) as lifetime_value
  `,
    ),
  );
  return {
    period,
    period_start,
    today,
    ...figures,
    inactive_customers: figures.total_customers - figures.active_customers,
  };
}

// ---------------------------------------------------------------------------------------------

/** What the agency holds today, what it earns this year, what comes up for renewal and what is owed. */
export async function portfolioAnalytics(tx: Transaction, tenantId: string): Promise<PortfolioAnalytics> {
  const year = await commissionThisYear(tx, tenantId, await agencyToday(tx));
  const commission_this_year = {
    year: year.year,
    policies: year.summary.total_policies,
    expected: year.summary.total_expected_commission,
    received: year.summary.total_received_commission,
    outstanding: year.summary.outstanding_commission,
    received_percentage: year.summary.commission_received_percentage,
  };
  await tx.execute(sql`select ${roomToGroup}`);
  // The active policies summed by insurer, by type, by frequency and overall in one pass.
  const grouped = sql`
    select ${policies.companyId} as company_id, ${policies.policyTypeId} as policy_type_id,
      ${policies.paymentFrequency} as payment_frequency,
      grouping(${policies.companyId}) = 0 as by_company,
      grouping(${policies.policyTypeId}) = 0 as by_type,
      grouping(${policies.paymentFrequency}) = 0 as by_frequency,
      count(*)::int as policies, sum(${policies.totalPremium}) as premium
    from ${policiesOfAgency(tenantId)} and ${statusIs.active}
    group by grouping sets ((${policies.companyId}), (${policies.policyTypeId}), (${policies.paymentFrequency}), ())`;
  const groupOf = (kind: string, fields: SQL, join: SQL, order: SQL) => sql`coalesce((
    select json_agg(json_build_object(${fields}, 'policies', in_force.policies,
        'premium', ${money(sql`in_force.premium`)},
        'share_percentage', ${share(sql`in_force.premium`, sql`total.premium`)})
      order by in_force.premium desc, ${order})
    from in_force ${join}
    where in_force.${sql.raw(kind)}), '[]'::json)`;
  const renewalsWithin = (days: number) => sql`json_build_object('within_days', ${sql.raw(String(days))},
    'policies', count(*) filter (where ${expiringWithin(days)}),
    'premium', ${money(sql`sum(${policies.totalPremium}) filter (where ${expiringWithin(days)})`)})`;

  const figures = one(
    await rows<Omit<PortfolioAnalytics, 'commission_this_year'>>(
      tx,
      sql`
    with in_force as materialized (${grouped}),
    total as (select coalesce(
      (select premium from in_force where not (by_company or by_type or by_frequency)), 0) as premium,
      coalesce((select policies from in_force where not (by_company or by_type or by_frequency)), 0) as policies),
    by_company as (
      select in_force.company_id, ${companies.name} as company_name, in_force.premium
      from in_force join ${companies} on ${companies.tenantId} = ${tenantId} and ${companies.id} = in_force.company_id
      where in_force.by_company)
    select current_date::text as today,
      (select json_build_object('policies', policies, 'premium', ${money(sql`premium`)}) from total) as in_force,
      ${groupOf(
        'by_company',
        sql`'company_id', in_force.company_id, 'company_name', ${companies.name}`,
        sql`join ${companies} on ${companies.tenantId} = ${tenantId} and ${companies.id} = in_force.company_id cross join total`,
        sql`${companies.name}, in_force.company_id`,
      )} as by_company,
      ${groupOf(
        'by_type',
        sql`'policy_type_id', in_force.policy_type_id, 'policy_type_name', ${policyTypes.name}`,
        sql`join ${policyTypes} on ${policyTypes.tenantId} = ${tenantId} and ${policyTypes.id} = in_force.policy_type_id cross join total`,
        sql`${policyTypes.name}, in_force.policy_type_id`,
      )} as by_policy_type,
      ${groupOf(
        'by_frequency',
        sql`'payment_frequency', in_force.payment_frequency`,
        sql`cross join total`,
        sql`in_force.payment_frequency`,
      )} as by_payment_frequency,
      (select json_build_object('company_id', by_company.company_id, 'company_name', by_company.company_name,
          'premium', ${money(sql`by_company.premium`)},
          'share_percentage', ${share(sql`by_company.premium`, sql`total.premium`)})
        from by_company cross join total
        order by by_company.premium desc, by_company.company_name, by_company.company_id
        limit 1) as concentration,
      (select json_build_array(${renewalsWithin(30)}, ${renewalsWithin(60)}, ${renewalsWithin(90)})
        from ${policiesOfAgency(tenantId)} and ${expiringWithin(90)}) as renewals_due,
      (select json_build_object('instalments', totals.instalments, 'amount', totals.amount)
        from (${overdueTotals(tenantId)}) totals) as overdue
  `,
    ),
  );
  return { ...figures, commission_this_year };
}

// ---------------------------------------------------------------------------------------------

/** The first days of the last `months` calendar months, oldest first, ending with the current one. */
const lastMonths = (months: number) => sql`generate_series(
    date_trunc('month', current_date) - make_interval(months => ${months - 1}), date_trunc('month', current_date),
    interval '1 month')`;

/**
 * "Commission this month" (docs/figures.md), as one row (`expected`, `received`): the commission
 * expected on the terms, new business and renewals, that started this calendar month by today (a
 * cancelled one with what it earned), and the commission insurers owe on what customers paid this
 * month. Read from the history months the policy triggers keep, so the portfolio history's current
 * month and the dashboard give the same two numbers.
 */
const commissionThisMonthOf = (tenantId: string) => sql`
  select
    (select sum(${policyMonths.expectedCommission})
      from ${policyMonths}
      join ${policies} on ${policies.tenantId} = ${policyMonths.tenantId} and ${policies.id} = ${policyMonths.policyId}
      where ${policyMonths.tenantId} = ${tenantId}
        and ${policyMonths.month} = date_trunc('month', current_date)::date
        and ${policies.startDate} <= current_date) as expected,
    (select sum(${keptReceivedCommission(bookMonths)})
      from ${bookMonths}
      join ${companies} on ${companies.tenantId} = ${bookMonths.tenantId} and ${companies.id} = ${bookMonths.companyId}
      where ${bookMonths.tenantId} = ${tenantId}
        and ${bookMonths.month} = date_trunc('month', current_date)::date) as received`;

/** "Commission this month", for the dashboard: the month's first day to today, and its two sums. */
export async function commissionThisMonth(
  tx: Transaction,
  tenantId: string,
): Promise<{ start_date: string; end_date: string; expected: string; received: string }> {
  return one(
    await rows(
      tx,
      sql`select date_trunc('month', current_date)::date::text as start_date, current_date::text as end_date,
        ${money(sql`commission.expected`)} as expected, ${money(sql`commission.received`)} as received
      from (${commissionThisMonthOf(tenantId)}) commission`,
    ),
  );
}

/**
 * The book month by month, from the figures its triggers keep per policy and month (migration 0016):
 * worked out from the policies' dates, renewal links and payments alone, so an agency's history is
 * right from the day it imports its book, and read from a few hundred rows however large the book.
 */
export async function portfolioHistory(
  tx: Transaction,
  tenantId: string,
  months: PortfolioHistoryMonths,
): Promise<PortfolioHistory> {
  const window = lastMonths(months);
  const thisMonth = sql`date_trunc('month', current_date)::date`;

  // The agency's months, each insurer's commission by its own payout method.
  const book = sql`
    select ${bookMonths.month} as month,
      sum(${bookMonths.inForce}) as in_force, sum(${bookMonths.premiumInForce}) as premium_in_force,
      sum(${bookMonths.newPolicies}) as new_policies, sum(${bookMonths.expectedCommission}) as expected,
      sum(${bookMonths.renewed}) as renewed, sum(${bookMonths.endedOpen}) as expired,
      sum(${bookMonths.cancelled}) as cancelled,
      sum(${keptReceivedCommission(bookMonths)}) as received
    from ${bookMonths}
    join ${companies} on ${companies.tenantId} = ${bookMonths.tenantId} and ${companies.id} = ${bookMonths.companyId}
    where ${bookMonths.tenantId} = ${tenantId} and ${bookMonths.month} <= current_date
    group by ${bookMonths.month}`;

  // This month's events count up to today only: read with their policies' own dates. A term its
  // renewal ended early ends the day before its cancellation date, the renewal's start (migration 0078).
  const thisMonthEvents = sql`
    select sum(${policyMonths.newPolicies}) filter (where ${policies.startDate} <= current_date) as new_policies,
      sum(${policyMonths.renewed}) filter (where ${policies.endDate} <= current_date
        or ${policies.cancelledAt} <= current_date) as renewed,
      sum(${policyMonths.endedOpen}) filter (where ${statusIs.expired}) as expired,
      sum(${policyMonths.cancelled}) filter (where ${policies.cancelledAt} <= current_date) as cancelled
    from ${policyMonths}
    join ${policies} on ${policies.tenantId} = ${policyMonths.tenantId} and ${policies.id} = ${policyMonths.policyId}
    where ${policyMonths.tenantId} = ${tenantId} and ${policyMonths.month} = ${thisMonth}`;

  // The current month's in-force figures are today's, by the policies' own status.
  const activeToday = sql`
    select count(*)::int as policies, sum(${policies.totalPremium}) as premium
    from ${policies} where ${policies.tenantId} = ${tenantId} and ${statusIs.active}`;

  const today = await agencyToday(tx);
  const history = await rows<PortfolioHistory['results'][number]>(
    tx,
    sql`
    with book as materialized (${book}),
    months as (
      select month::date as first_day, least((month + interval '1 month - 1 day')::date, current_date) as as_of
      from ${window} month),
    this_month as (${thisMonthEvents}),
    this_month_commission as (${commissionThisMonthOf(tenantId)}),
    active_today as (${activeToday}),
    figures as (
      select months.first_day, months.as_of,
        case when months.as_of = current_date then active_today.policies
          else (select sum(in_force) from book where book.month <= months.first_day) end as policies_in_force,
        case when months.as_of = current_date then active_today.premium
          else (select sum(premium_in_force) from book where book.month <= months.first_day) end as premium_in_force,
        case when months.as_of = current_date then this_month.new_policies else book.new_policies end as new_policies,
        case when months.as_of = current_date then this_month_commission.expected else book.expected end as expected,
        case when months.as_of = current_date then this_month.renewed else book.renewed end as renewed,
        case when months.as_of = current_date then this_month.expired else book.expired end as expired,
        case when months.as_of = current_date then this_month.cancelled else book.cancelled end as cancelled,
        case when months.as_of = current_date then this_month_commission.received else book.received end
          as received
      from months
      cross join this_month cross join this_month_commission cross join active_today
      left join book on book.month = months.first_day)
    select to_char(first_day, 'YYYY-MM') as month, as_of::text as as_of,
      coalesce(policies_in_force, 0)::int as policies_in_force,
      ${money(sql`premium_in_force`)} as premium_in_force,
      coalesce(new_policies, 0)::int as new_policies,
      coalesce(renewed, 0)::int as renewed,
      coalesce(expired, 0)::int as expired,
      coalesce(cancelled, 0)::int as cancelled,
      ${money(sql`expected`)} as expected_commission,
      ${money(sql`received`)} as received_commission,
      ${share(sql`renewed`, sql`coalesce(renewed, 0) + coalesce(expired, 0)`)} as retention_rate
    from figures
    order by first_day`,
  );
  return { months, today, results: history };
}

// ---------------------------------------------------------------------------------------------

/**
 * For the dashboard: each of the last `months` months' premium written (the total premiums of the
 * terms, new or renewals, that started in it by today and are not cancelled) and the commission its
 * payments earned (the portfolio history's `received_commission`). Both read kept totals: the book
 * totals grouped by start date, and the history months.
 */
export async function monthlyWrittenAndReceived(
  tx: Transaction,
  tenantId: string,
  months: number,
): Promise<{ month: string; premium_written: string; commission_received: string }[]> {
  const firstMonth = sql`(date_trunc('month', current_date) - make_interval(months => ${months - 1}))::date`;
  const book = policyBookTotals;
  return rows(
    tx,
    sql`
    with written as (
      select date_trunc('month', ${book.startDate})::date as month, sum(${book.totalPremium}) as premium
      from ${book}
      where ${book.tenantId} = ${tenantId} and not (${bookStatusIs.cancelled})
        and ${book.startDate} >= ${firstMonth} and ${book.startDate} <= current_date
      group by 1),
    received as (
      select ${bookMonths.month} as month, sum(${keptReceivedCommission(bookMonths)}) as received
      from ${bookMonths}
      join ${companies} on ${companies.tenantId} = ${bookMonths.tenantId} and ${companies.id} = ${bookMonths.companyId}
      where ${bookMonths.tenantId} = ${tenantId} and ${bookMonths.month} >= ${firstMonth}
        and ${bookMonths.month} <= current_date
      group by ${bookMonths.month})
    select to_char(month, 'YYYY-MM') as month, ${money(sql`written.premium`)} as premium_written,
      ${money(sql`received.received`)} as commission_received
    from (select first_day::date as month from ${lastMonths(months)} first_day) months
    left join written using (month)
    left join received using (month)
    order by month`,
  );
}
