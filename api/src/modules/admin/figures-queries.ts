import type {
  AdminAnalytics,
  AdminBilling,
  AdminBillingEvent,
  AdminBillingEventQuery,
  AdminDashboard,
  AdminRevenue,
  AgencyUsage,
  AgencyUsageQuery,
  SubscriptionCounts,
} from '@coverdesk/contract';
import { SUBSCRIPTION_STATUSES } from '@coverdesk/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { containing, literalLimit } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { countOpenTickets } from '../support/queries.js';
import { listedAgencies } from './tenant-queries.js';

// Platform-wide reads for the admin screens, in a `readAcrossAgencies` transaction: each figure is one grouped
// statement over the whole table (no query per agency), so it stays quick with hundreds of agencies
// and a million policies. Months are calendar months in UTC. The demo agency, whose records visitors
// make up, is left out of every figure.

/**
 * Which statuses bring in recurring revenue: active, and past due while the failed payment is retried
 * (the agency keeps access and still owes the period). Paused, in trial or expired bring none.
 */
const PAYING = sql.raw(`('active', 'past_due')`);

/**
 * Whether a subscription row brings in recurring revenue now: a paying status, or a paid period
 * cancelled at its end that has not run out yet. The agency paid for that period and may take the
 * cancellation back, so it is lost revenue only once the period ends.
 */
const bringsRevenue = (s: string) =>
  sql.raw(
    `(${s}.status in ('active', 'past_due') or (${s}.status = 'cancelled' and ${s}.cancel_at_period_end and ${s}.current_period_end > now()))`,
  );

/** Statuses in which a subscription has ended: cancelled (even at the end of its period) or expired. */
const ENDED = sql.raw(`('cancelled', 'expired')`);

/** A plan's price for one month of a cycle: the monthly price, or the yearly price over 12, unrounded. */
const monthlyPrice = (cycle: SQL, plan: string) =>
  sql`case ${cycle} when 'yearly' then ${sql.raw(plan)}.price_yearly / 12 else ${sql.raw(plan)}.price_monthly end`;

/** Money as the API sends it, "1234.50": sums stay exact and are rounded to the cent once, at the end. */
const cents = (amount: SQL | string) =>
  sql`round(coalesce(${typeof amount === 'string' ? sql.raw(amount) : amount}, 0), 2)::text`;

/** The first day of each of the last 12 months, oldest first. */
const LAST_12_MONTHS = sql`
  select generate_series(
    date_trunc('month', now() at time zone 'UTC') - interval '11 months',
    date_trunc('month', now() at time zone 'UTC'),
    interval '1 month'
  ) as month`;

const monthOf = (moment: string) => sql.raw(`date_trunc('month', ${moment} at time zone 'UTC')`);
const monthLabel = sql.raw(`to_char(m.month, 'YYYY-MM')`);

/**
 * Each agency's subscription at the end of every month in which its billing changed, beside where it
 * stood at the end of its previous such month (null and 0 before its first): the status, and the
 * recurring revenue it brought, the plan's monthly price (yearly over 12) while paying, else 0. A paid
 * period cancelled at its end still brings its revenue until it runs out (status `cancelling`): the
 * agency paid for it, and may take the cancellation back. Churn and revenue movements compare these
 * month ends rather than each event with the one before, so an agency that cancels and takes it back
 * within its paid period, in one month or across two, neither churned nor came back as new: it never
 * stopped paying. A plan change scheduled for later changes nothing yet. Prices are the plans' current
 * ones.
 */
const AGENCY_MONTH_ENDS = sql`
  select tenant_id, month, status, mrr,
    lag(status) over agency as status_before,
    coalesce(lag(mrr) over agency, 0) as mrr_before
  from (
    select tenant_id, month, status,
      case when status in ${PAYING} or status = 'cancelling'
        then coalesce(${monthlyPrice(sql.raw('billing_cycle'), 'p')}, 0) else 0 end as mrr
    from (
      select distinct on (e.tenant_id, ${monthOf('e.occurred_at')})
        e.tenant_id, ${monthOf('e.occurred_at')} as month, e.billing_cycle, e.plan_name,
        case when e.to_status = 'cancelled' and (
          -- The latest cancellation so far: one at the end of a paid period leaves it running.
          select c.type = 'cancellation_scheduled' and c.from_status in ${PAYING}
          from billing_events c
          where c.tenant_id = e.tenant_id and c.type in ('cancellation_scheduled', 'cancelled')
            and c.occurred_at <= e.occurred_at
          order by c.occurred_at desc, c.id desc limit 1
        ) then 'cancelling' else e.to_status end as status
      from billing_events e
      join tenants t on t.id = e.tenant_id and not t.is_demo
      where e.type <> 'plan_change_scheduled'
      order by e.tenant_id, ${monthOf('e.occurred_at')}, e.occurred_at desc, e.id desc
    ) last_event
    left join plans p on p.display_name = last_event.plan_name
  ) month_end
  window agency as (partition by tenant_id order by month)`;

async function subscriptionCounts(tx: Transaction): Promise<SubscriptionCounts> {
  const { rows } = await tx.execute<{ status: keyof SubscriptionCounts; count: number }>(sql`
    select s.status, count(*)::int as count
    from subscriptions s join tenants t on t.id = s.tenant_id and not t.is_demo
    group by s.status`);
  const counts = Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, 0])) as SubscriptionCounts;
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/** The recurring revenue the paying subscriptions bring each month now, unrounded. */
const CURRENT_MRR = sql`
  select coalesce(sum(${monthlyPrice(sql.raw('s.billing_cycle'), 'p')}), 0) as mrr
  from subscriptions s
  join tenants t on t.id = s.tenant_id and not t.is_demo
  join plans p on p.id = s.plan_id
  where ${bringsRevenue('s')}`;

export async function platformDashboard(tx: Transaction): Promise<AdminDashboard> {
  const { rows: agencies } = await tx.execute<{ total: number; new_this_month: number; mrr: string }>(sql`
    select count(*)::int as total,
      count(*) filter (where ${monthOf('created_at')} = date_trunc('month', now() at time zone 'UTC'))::int
        as new_this_month,
      (select ${cents('mrr')} from (${CURRENT_MRR}) current) as mrr
    from tenants where ${listedAgencies({ includeDemo: false })}`);
  // Churn counts a subscription once, in the month at whose end it is cancelled or expired having been
  // live at the end of the month before: a cancellation at period end is counted when the paid period
  // runs out (and not at all when it is taken back before); a trial that runs out without a purchase
  // counts too.
  const { rows: months } = await tx.execute<{ month: string; sign_ups: number; churned: number }>(sql`
    with months as (${LAST_12_MONTHS}),
    sign_ups as (
      select ${monthOf('created_at')} as month, count(*)::int as count
      from tenants where ${listedAgencies({ includeDemo: false })} group by 1
    ),
    churned as (
      select month, count(*)::int as count
      from (${AGENCY_MONTH_ENDS}) agency_month
      where status in ${ENDED} and (status_before is null or status_before not in ${ENDED})
      group by month
    )
    select ${monthLabel} as month, coalesce(s.count, 0) as sign_ups, coalesce(c.count, 0) as churned
    from months m
    left join sign_ups s on s.month = m.month
    left join churned c on c.month = m.month
    order by m.month`);
  const [figures] = agencies;
  return {
    agencies: { total: figures?.total ?? 0, new_this_month: figures?.new_this_month ?? 0 },
    subscriptions: await subscriptionCounts(tx),
    mrr: figures?.mrr ?? '0.00',
    months,
    open_tickets: await countOpenTickets(tx),
  };
}

export async function platformBilling(tx: Transaction): Promise<AdminBilling> {
  // Since: the newest event that moved the subscription into past due (its last change otherwise).
  const { rows: pastDue } = await tx.execute<AdminBilling['past_due'][number]>(sql`
    select t.id as tenant_id, t.name as agency, p.display_name as plan, s.billing_cycle,
      coalesce(
        (select max(e.occurred_at) from billing_events e
          where e.tenant_id = s.tenant_id and e.to_status = 'past_due'
            and e.from_status is distinct from 'past_due'),
        s.updated_at
      ) as since,
      (case s.billing_cycle when 'yearly' then p.price_yearly else p.price_monthly end)::text as amount
    from subscriptions s
    join tenants t on t.id = s.tenant_id and not t.is_demo
    join plans p on p.id = s.plan_id
    where s.status = 'past_due'
    order by since, t.name`);
  return {
    subscriptions: await subscriptionCounts(tx),
    past_due: pastDue.map((row) => ({ ...row, since: new Date(row.since).toISOString() })),
  };
}

export async function platformBillingEvents(
  tx: Transaction,
  query: AdminBillingEventQuery & { page: number; page_size: number },
): Promise<{ count: number; results: AdminBillingEvent[] }> {
  const filters: SQL[] = [sql`not t.is_demo`];
  if (query.search) filters.push(sql`t.name ilike ${containing(query.search)}`);
  if (query.tenant_id) filters.push(sql`e.tenant_id = ${query.tenant_id}`);
  if (query.type) filters.push(sql`e.type = ${query.type}`);
  if (query.date_from)
    filters.push(sql`e.occurred_at >= (${query.date_from}::date)::timestamp at time zone 'UTC'`);
  if (query.date_to) {
    filters.push(sql`e.occurred_at < (${query.date_to}::date + 1)::timestamp at time zone 'UTC'`);
  }
  const where = sql.join(filters, sql` and `);
  const { rows: total } = await tx.execute<{ count: number }>(sql`
    select count(*)::int as count
    from billing_events e join tenants t on t.id = e.tenant_id where ${where}`);
  const { rows } = await tx.execute<
    Omit<AdminBillingEvent, 'occurred_at'> & { occurred_at: string | Date }
  >(sql`
    select e.id, e.tenant_id, t.name as agency, e.type, e.from_status, e.to_status, e.plan_name,
      e.billing_cycle, e.amount::text as amount, e.provider, e.provider_event_id,
      e.actor_name as actor, e.note, e.occurred_at,
      (select p.plan_name from billing_events p
        where p.tenant_id = e.tenant_id and (p.occurred_at, p.id) < (e.occurred_at, e.id)
        order by p.occurred_at desc, p.id desc limit 1) as from_plan_name
    from billing_events e join tenants t on t.id = e.tenant_id
    where ${where}
    order by e.occurred_at desc, e.id desc
    limit ${literalLimit(query.page_size)} offset ${offsetOf(query)}`);
  return {
    count: total[0]?.count ?? 0,
    results: rows.map((row) => ({ ...row, occurred_at: new Date(row.occurred_at).toISOString() })),
  };
}

/**
 * Recurring revenue now, by plan, and month by month, with how it moved. Each agency's MRR at the end
 * of a month (`AGENCY_MONTH_ENDS`) is compared with its MRR at the end of the month before:
 * - new: from 0 to more (a first purchase, or paying again after a cancellation, a pause or a lapse);
 * - expansion: from some to more (a dearer plan or cycle); contraction: from some to less, not 0;
 * - churned: from some to 0 (cancelled, even at period end, paused or expired), the MRR lost.
 * A month's MRR is the sum of every movement up to its end, so each month's MRR is the previous
 * month's plus new and expansion, minus contraction and churn.
 */
export async function platformRevenue(tx: Transaction): Promise<AdminRevenue> {
  const { rows: now } = await tx.execute<{ mrr: string; arr: string }>(sql`
    select ${cents('mrr')} as mrr, ${cents(sql.raw('mrr * 12'))} as arr from (${CURRENT_MRR}) current`);
  // A plan nobody pays for still gets its row, with no subscription and no revenue.
  const planMrr = sql`sum(${monthlyPrice(sql.raw('s.billing_cycle'), 'p')}) filter (where s.id is not null)`;
  const { rows: byPlan } = await tx.execute<AdminRevenue['by_plan'][number]>(sql`
    select p.name as plan, p.display_name, count(s.id)::int as subscriptions,
      ${cents(sql`${planMrr}`)} as mrr, ${cents(sql`${planMrr} * 12`)} as arr
    from plans p
    left join (
      subscriptions s join tenants t on t.id = s.tenant_id and not t.is_demo
    ) on s.plan_id = p.id and ${bringsRevenue('s')}
    group by p.id
    order by p.sort_order`);
  const { rows: months } = await tx.execute<AdminRevenue['months'][number]>(sql`
    with months as (${LAST_12_MONTHS}),
    movements as (
      select month,
        sum(mrr - mrr_before) as net,
        sum(mrr) filter (where mrr_before = 0 and mrr > 0) as new_mrr,
        sum(mrr - mrr_before) filter (where mrr_before > 0 and mrr > mrr_before) as expansion,
        sum(mrr_before - mrr) filter (where mrr > 0 and mrr < mrr_before) as contraction,
        sum(mrr_before) filter (where mrr_before > 0 and mrr = 0) as churned
      from (${AGENCY_MONTH_ENDS}) agency_month group by month
    )
    select ${monthLabel} as month,
      ${cents(sql`(select sum(net) from movements upto where upto.month <= m.month)`)} as mrr,
      ${cents(sql`(select sum(net) from movements upto where upto.month <= m.month) * 12`)} as arr,
      ${cents('mv.new_mrr')} as new_mrr, ${cents('mv.expansion')} as expansion,
      ${cents('mv.contraction')} as contraction, ${cents('mv.churned')} as churned
    from months m left join movements mv on mv.month = m.month
    order by m.month`);
  return { mrr: now[0]?.mrr ?? '0.00', arr: now[0]?.arr ?? '0.00', by_plan: byPlan, months };
}

export async function platformAnalytics(tx: Transaction): Promise<AdminAnalytics> {
  // Counted from the kept book totals rather than the policies themselves: a few rows per agency.
  const { rows: totals } = await tx.execute<AdminAnalytics['totals']>(sql`
    select
      (select count(*)::int from tenants where not is_demo) as agencies,
      (select coalesce(sum(b.policies), 0)::int from policy_book_totals b
        join tenants t on t.id = b.tenant_id and not t.is_demo) as policies,
      (select count(*)::int from customers c join tenants t on t.id = c.tenant_id and not t.is_demo) as customers,
      (select count(*)::int from leads l join tenants t on t.id = l.tenant_id and not t.is_demo) as leads,
      (select count(*)::int from claims c join tenants t on t.id = c.tenant_id and not t.is_demo) as claims`);
  // A user is active on a day they signed in: the audit log keeps every sign-in, where the user's own
  // last sign-in would count them on their latest day only.
  const { rows: activeUsers } = await tx.execute<{ day: string; users: number }>(sql`
    with days as (
      select generate_series(
        (now() at time zone 'UTC')::date - 29, (now() at time zone 'UTC')::date, interval '1 day'
      )::date as day
    ),
    sign_ins as (
      select (a.occurred_at at time zone 'UTC')::date as day, count(distinct a.user_id)::int as users
      from audit_log a join tenants t on t.id = a.tenant_id and not t.is_demo
      where a.action = 'sign_in' and a.user_id is not null
        and a.occurred_at >= ((now() at time zone 'UTC')::date - 29)::timestamp at time zone 'UTC'
      group by 1
    )
    select d.day::text as day, coalesce(s.users, 0) as users
    from days d left join sign_ins s on s.day = d.day
    order by d.day`);
  const [figures] = totals;
  return {
    totals: figures ?? { agencies: 0, policies: 0, customers: 0, leads: 0, claims: 0 },
    active_users: activeUsers,
  };
}

const USAGE_COLUMNS: Record<string, string> = {
  agency: 'lower(t.name)',
  policies: 'policies',
  customers: 'customers',
  leads: 'leads',
  claims: 'claims',
  users: 'users',
};

/** Each agency's records, one grouped count per table joined to the agencies of the page's order. */
export async function agencyUsage(
  tx: Transaction,
  query: Required<Pick<AgencyUsageQuery, 'ordering'>> & { search?: string; page: number; page_size: number },
): Promise<{ count: number; results: AgencyUsage[] }> {
  const where = query.search ? sql`and t.name ilike ${containing(query.search)}` : sql``;
  const descending = query.ordering.startsWith('-');
  const column = USAGE_COLUMNS[descending ? query.ordering.slice(1) : query.ordering];
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const { rows: total } = await tx.execute<{ count: number }>(sql`
    select count(*)::int as count from tenants t where not t.is_demo ${where}`);
  const { rows } = await tx.execute<AgencyUsage>(sql`
    with policy_counts as (
      select tenant_id, sum(policies)::int as count from policy_book_totals group by tenant_id
    ),
    customer_counts as (select tenant_id, count(*)::int as count from customers group by tenant_id),
    lead_counts as (select tenant_id, count(*)::int as count from leads group by tenant_id),
    claim_counts as (select tenant_id, count(*)::int as count from claims group by tenant_id),
    user_counts as (select tenant_id, count(*)::int as count from users group by tenant_id)
    select t.id, t.name as agency, p.display_name as plan, s.status,
      coalesce(pc.count, 0) as policies, coalesce(cc.count, 0) as customers,
      coalesce(lc.count, 0) as leads, coalesce(clc.count, 0) as claims, coalesce(uc.count, 0) as users
    from tenants t
    left join subscriptions s on s.tenant_id = t.id
    left join plans p on p.id = s.plan_id
    left join policy_counts pc on pc.tenant_id = t.id
    left join customer_counts cc on cc.tenant_id = t.id
    left join lead_counts lc on lc.tenant_id = t.id
    left join claim_counts clc on clc.tenant_id = t.id
    left join user_counts uc on uc.tenant_id = t.id
    where not t.is_demo ${where}
    order by ${sql.raw(column ?? 'policies')} ${direction}, t.id ${direction}
    limit ${literalLimit(query.page_size)} offset ${offsetOf(query)}`);
  return { count: total[0]?.count ?? 0, results: rows };
}
