import {
  addDays,
  type CommissionReportRow,
  type CommissionSummary,
  type CustomerAnalytics,
  fromCents,
  type Policy,
  type PortfolioAnalytics,
  type PortfolioHistory,
  toCents,
} from '@coverdesk/contract';

// The arithmetic of the diagnostics pages: a server total against the same total recomputed from
// the rows a broker sees, in whole cents so a one-cent disagreement is found and never hidden by
// floating-point rounding.

/** One figure as the server gave it and as recomputed; `difference` is actual - expected. */
export interface Check {
  label: string;
  expected: string;
  actual: string;
  difference: string;
  matches: boolean;
}

/** Cents of an API amount; the contract's helper reads unsigned amounts, so the sign is kept here. */
export const cents = (amount: string): bigint =>
  amount.startsWith('-') ? -toCents(amount.slice(1)) : toCents(amount);

/** An amount of cents as the API writes money, a minus sign first when below zero. */
export const amount = (value: bigint): string => (value < 0n ? `-${fromCents(-value)}` : fromCents(value));

/** The sum, in cents, of one money field over some rows. */
export function sumCents<Row>(rows: readonly Row[], pick: (row: Row) => string): bigint {
  return rows.reduce((total, row) => total + cents(pick(row)), 0n);
}

/** A money figure: the server's amount against a recomputed one. */
export function moneyCheck(label: string, expected: string, actual: bigint): Check {
  const difference = actual - cents(expected);
  return {
    label,
    expected: amount(cents(expected)),
    actual: amount(actual),
    difference: amount(difference),
    matches: difference === 0n,
  };
}

/** A count: the server's number against a recomputed one. */
export function countCheck(label: string, expected: number, actual: number): Check {
  const difference = actual - expected;
  return {
    label,
    expected: String(expected),
    actual: String(actual),
    difference: String(difference),
    matches: difference === 0,
  };
}

/** p50, p95 and the slowest of some timings (nearest rank), in milliseconds. */
export function timingSummary(durations: readonly number[]): { p50: number; p95: number; max: number } {
  if (durations.length === 0) return { p50: 0, p95: 0, max: 0 };
  const sorted = [...durations].sort((a, b) => a - b);
  const rank = (share: number) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0;
  return { p50: rank(0.5), p95: rank(0.95), max: sorted[sorted.length - 1] ?? 0 };
}

type SummedField = Exclude<
  keyof CommissionSummary,
  'total_policies' | 'commission_received_percentage' | 'average_commission_percentage'
>;

/** The money totals of the report's summary, from any rows carrying the four per-policy figures. */
function commissionTotals(
  rows: readonly Pick<
    CommissionReportRow,
    'total_premium' | 'expected_commission' | 'received_commission' | 'amount_paid'
  >[],
): Record<SummedField, bigint> {
  const premium = sumCents(rows, (row) => row.total_premium);
  const expected = sumCents(rows, (row) => row.expected_commission);
  const received = sumCents(rows, (row) => row.received_commission);
  const paid = sumCents(rows, (row) => row.amount_paid);
  return {
    total_premium: premium,
    total_commission: expected,
    total_expected_commission: expected,
    total_received_commission: received,
    total_paid: paid,
    total_pending: premium - paid,
    total_earned: received,
    outstanding_commission: expected - received,
  };
}

const SUMMED_FIELDS: readonly SummedField[] = [
  'total_premium',
  'total_commission',
  'total_expected_commission',
  'total_received_commission',
  'total_paid',
  'total_pending',
  'total_earned',
  'outstanding_commission',
];

/** The report's summary against the sums of its rows, or of the policies the policy pages show. */
export function summaryChecks(
  summary: CommissionSummary,
  rows: readonly Pick<
    CommissionReportRow,
    'total_premium' | 'expected_commission' | 'received_commission' | 'amount_paid'
  >[],
): Check[] {
  const totals = commissionTotals(rows);
  return [
    countCheck('total_policies', summary.total_policies, rows.length),
    ...SUMMED_FIELDS.map((field) => moneyCheck(field, summary[field], totals[field])),
  ];
}

/** An insurer's figures in the report's company summary. */
export interface CompanyFigures {
  company_id: string;
  company_name: string;
  total_policies: number;
  total_premium: string;
  total_expected_commission: string;
  total_received_commission: string;
  outstanding_commission: string;
}

/** Each insurer's summary against the sums of its rows; an insurer missing on either side shows as zero. */
export function companyChecks(
  companies: readonly CompanyFigures[],
  rows: readonly Pick<
    CommissionReportRow,
    | 'company_id'
    | 'company_name'
    | 'total_premium'
    | 'expected_commission'
    | 'received_commission'
    | 'amount_paid'
  >[],
): { id: string; company: string; checks: Check[] }[] {
  const names = new Map<string, string>();
  for (const row of rows) names.set(row.company_id, row.company_name);
  for (const company of companies) names.set(company.company_id, company.company_name);
  return [...names].map(([id, name]) => {
    const own = rows.filter((row) => row.company_id === id);
    const totals = commissionTotals(own);
    const server = companies.find((company) => company.company_id === id);
    return {
      id,
      company: name,
      checks: [
        countCheck('total_policies', server?.total_policies ?? 0, own.length),
        moneyCheck('total_premium', server?.total_premium ?? '0.00', totals.total_premium),
        moneyCheck(
          'total_expected_commission',
          server?.total_expected_commission ?? '0.00',
          totals.total_expected_commission,
        ),
        moneyCheck(
          'total_received_commission',
          server?.total_received_commission ?? '0.00',
          totals.total_received_commission,
        ),
        moneyCheck(
          'outstanding_commission',
          server?.outstanding_commission ?? '0.00',
          totals.outstanding_commission,
        ),
      ],
    };
  });
}

/** The current portfolio's totals against its own breakdowns, the policy list and the payments list. */
export function portfolioChecks(
  portfolio: PortfolioAnalytics,
  policies: readonly Policy[],
  overdueInstalments: number,
): Check[] {
  const active = policies.filter((policy) => policy.status === 'active');
  const { in_force, commission_this_year: thisYear } = portfolio;
  const breakdowns: [string, readonly { policies: number; premium: string }[]][] = [
    ['by insurer', portfolio.by_company],
    ['by type', portfolio.by_policy_type],
    ['by payment frequency', portfolio.by_payment_frequency],
  ];
  // As the commission report counts a year: every term overlapping it, a cancelled one with what it earned.
  const startedThisYear = policies.filter(
    (policy) => policy.start_date <= `${thisYear.year}-12-31` && policy.end_date >= `${thisYear.year}-01-01`,
  );
  return [
    ...breakdowns.flatMap(([name, groups]) => [
      countCheck(
        `Policies in force ${name} summed = total`,
        in_force.policies,
        groups.reduce((total, group) => total + group.policies, 0),
      ),
      moneyCheck(
        `Premium in force ${name} summed = total`,
        in_force.premium,
        sumCents(groups, (group) => group.premium),
      ),
    ]),
    countCheck('Policies in force = active policies in the list', in_force.policies, active.length),
    moneyCheck(
      'Premium in force = premium of active policies in the list',
      in_force.premium,
      sumCents(active, (policy) => policy.total_premium),
    ),
    countCheck(
      `Policies of ${thisYear.year} = policies whose term overlaps the year`,
      thisYear.policies,
      startedThisYear.length,
    ),
    moneyCheck(
      `Expected commission of ${thisYear.year} = their policies' expected commission`,
      thisYear.expected,
      sumCents(startedThisYear, (policy) => policy.expected_commission),
    ),
    moneyCheck(
      `Commission earned on customer payments of ${thisYear.year} = their policies' earned on customer payments`,
      thisYear.received,
      sumCents(startedThisYear, (policy) => policy.received_commission),
    ),
    ...portfolio.renewals_due.flatMap((due) => {
      const ending = active.filter((policy) => policy.end_date <= addDays(portfolio.today, due.within_days));
      return [
        countCheck(
          `Renewals due within ${due.within_days} days = active policies ending by then`,
          due.policies,
          ending.length,
        ),
        moneyCheck(
          `Premium renewing within ${due.within_days} days = their premium`,
          due.premium,
          sumCents(ending, (policy) => policy.total_premium),
        ),
      ];
    }),
    countCheck(
      'Overdue instalments = overdue instalments in the payments list',
      portfolio.overdue.instalments,
      overdueInstalments,
    ),
  ];
}

/**
 * Customer analytics against the customer list and the policy list. A customer counts as active
 * while holding a policy active today or written to start later, as the analytics define it.
 */
export function customerChecks(
  analytics: CustomerAnalytics,
  customerCount: number,
  policies: readonly Policy[],
  portfolio: PortfolioAnalytics,
): Check[] {
  const held = new Set(
    policies
      .filter((policy) => policy.status === 'active' || policy.status === 'pending')
      .map((policy) => policy.customer.id),
  );
  const perCustomer = analytics.policies_per_customer;
  return [
    countCheck('Total customers = customer list count', analytics.total_customers, customerCount),
    countCheck(
      'Active + inactive = total customers',
      analytics.total_customers,
      analytics.active_customers + analytics.inactive_customers,
    ),
    countCheck(
      'Active customers = customers holding an active or pending policy',
      analytics.active_customers,
      held.size,
    ),
    countCheck(
      'Policies-per-customer groups summed = active customers',
      analytics.active_customers,
      perCustomer.one + perCustomer.two + perCustomer.three + perCustomer.four_or_more,
    ),
    countCheck(
      'Customers with policies = customers of the policies',
      analytics.lifetime_value.customers_with_policies,
      new Set(policies.map((policy) => policy.customer.id)).size,
    ),
    moneyCheck(
      'Lifetime premium = earned premium of the policies, a cancelled one with what it earned',
      analytics.lifetime_value.total_premium,
      sumCents(policies, (policy) => policy.earned_premium),
    ),
    countCheck(
      'Overdue instalments = the current portfolio’s',
      portfolio.overdue.instalments,
      analytics.overdue.instalments,
    ),
    moneyCheck(
      'Amount overdue = the current portfolio’s',
      portfolio.overdue.amount,
      cents(analytics.overdue.amount_overdue),
    ),
    // Each top customer's lifetime figures against their own policies: every term, a cancelled one with
    // the premium and the commission it earned.
    ...[...analytics.top_by_premium, ...analytics.top_by_commission].flatMap((customer) => {
      const own = policies.filter((policy) => policy.customer.id === customer.customer_id);
      const name = customer.customer_name;
      return [
        countCheck(`${name}: policies`, customer.policies, own.length),
        moneyCheck(
          `${name}: lifetime premium`,
          customer.lifetime_premium,
          sumCents(own, (policy) => policy.earned_premium),
        ),
        moneyCheck(
          `${name}: expected commission`,
          customer.expected_commission,
          sumCents(own, (policy) => policy.expected_commission),
        ),
        moneyCheck(
          `${name}: earned on customer payments`,
          customer.received_commission,
          sumCents(own, (policy) => policy.received_commission),
        ),
      ];
    }),
  ];
}

/** The history's current month, taken today, against the current portfolio. */
export function historyChecks(
  history: PortfolioHistory,
  portfolio: PortfolioAnalytics,
  policies: readonly Policy[],
): Check[] {
  const current = history.results.at(-1);
  // What happened in a month, up to its last day (today for the current month), by the policies' dates.
  const within = (date: string | null, month: PortfolioHistory['results'][number]) =>
    date?.startsWith(`${month.month}-`) === true && date <= month.as_of;
  return [
    countCheck(
      'This month’s policies in force = portfolio in force',
      portfolio.in_force.policies,
      current?.policies_in_force ?? 0,
    ),
    moneyCheck(
      'This month’s premium in force = portfolio in force',
      portfolio.in_force.premium,
      cents(current?.premium_in_force ?? '0.00'),
    ),
    ...history.results.flatMap((month) => {
      const started = policies.filter((policy) => within(policy.start_date, month));
      // A term its renewal ended early ends the day before its cancellation date, the renewal's start.
      const ended = policies.filter((policy) =>
        within(
          policy.renewed_to_id && policy.cancelled_at ? addDays(policy.cancelled_at, -1) : policy.end_date,
          month,
        ),
      );
      return [
        countCheck(
          `${month.month}: new policies = terms started renewing none`,
          month.new_policies,
          started.filter((policy) => policy.renewed_from_id === null).length,
        ),
        moneyCheck(
          `${month.month}: expected commission = terms started, a cancelled one with what it earned`,
          month.expected_commission,
          sumCents(started, (policy) => policy.expected_commission),
        ),
        countCheck(
          `${month.month}: renewed = terms ended and renewed`,
          month.renewed,
          ended.filter((policy) => policy.status === 'renewed').length,
        ),
        countCheck(
          `${month.month}: expired = terms ended and expired`,
          month.expired,
          ended.filter((policy) => policy.status === 'expired').length,
        ),
        countCheck(
          `${month.month}: cancelled = cancellations dated in the month`,
          month.cancelled,
          policies.filter((policy) => policy.status === 'cancelled' && within(policy.cancelled_at, month))
            .length,
        ),
      ];
    }),
  ];
}
