import {
  calendarKindsFor,
  DASHBOARD_LIST_ROWS,
  type Dashboard,
  type DashboardCommission,
  type DashboardLeads,
  type DashboardPayments,
  type DashboardPolicies,
  installmentListQuery,
  leadListQuery,
  type ModuleName,
  type Policy,
  policyListQuery,
} from '@coverdesk/contract';
import type { Transaction } from '../../db/client.js';
import { agencyToday } from '../../db/tenant.js';
import { commissionThisMonth, monthlyWrittenAndReceived } from '../analytics/queries.js';
import { listCalendarEvents } from '../calendar/queries.js';
import { countOpenClaims } from '../claims/queries.js';
import { commissionThisYear } from '../commission-report/queries.js';
import { listLeadRows, summarizePipeline } from '../leads/queries.js';
import { listInstallmentRows, overdueTotals } from '../payments/queries.js';
import { activePoliciesByType, listPolicies, summarizePolicies } from '../policies/queries.js';

// The dashboard asks each module's own functions, in the request's one tenant transaction, so every
// figure is what the page behind its card shows: the policy stats, the commission report's totals for
// the year, the portfolio history's current month, the payments list filtered on overdue, the lead and claim stats' open counts. Each reads kept totals or an
// index, never the whole book.

/** The months the chart covers, ending with the current one. */
export const DASHBOARD_MONTHS = 12;

/** A policy's term is `expiring` when active and ending within this many days, as the policy stats count. */
const EXPIRING_DAYS = 30;

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to`, both "2026-11-23". */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

async function policiesSection(tx: Transaction, tenantId: string, today: string): Promise<DashboardPolicies> {
  const stats = await summarizePolicies(tx, tenantId);
  const byType = await activePoliciesByType(tx, tenantId);
  // The list the card opens, sorted by end date: its first rows are the renewals due first.
  const expiring = await listPolicies(
    tx,
    tenantId,
    policyListQuery.parse({
      expiring_within_days: EXPIRING_DAYS,
      ordering: 'end_date',
      page_size: DASHBOARD_LIST_ROWS,
    }),
  );
  const renewals = JSON.parse(expiring.resultsJson) as Policy[];
  return {
    active_policies: stats.by_status.active,
    premium_in_force: stats.active_premium,
    expiring_in_30_days: stats.expiring_in_30_days,
    by_type: byType,
    renewals_due: renewals.map((policy) => ({
      id: policy.id,
      policy_number: policy.policy_number,
      customer_name: policy.customer_name,
      company_name: policy.company_name,
      end_date: policy.end_date,
      total_premium: policy.total_premium,
      days_left: daysBetween(today, policy.end_date),
    })),
  };
}

async function commissionSection(
  tx: Transaction,
  tenantId: string,
  today: string,
): Promise<DashboardCommission> {
  const year = await commissionThisYear(tx, tenantId, today);
  return {
    this_month: await commissionThisMonth(tx, tenantId),
    this_year: {
      start_date: year.start_date,
      end_date: year.end_date,
      expected: year.summary.total_expected_commission,
      received: year.summary.total_received_commission,
    },
    by_company: year.company_summary.map((company) => ({
      company_id: company.company_id,
      company_name: company.company_name,
      expected: company.total_expected_commission,
      received: company.total_received_commission,
    })),
  };
}

async function paymentsSection(tx: Transaction, tenantId: string, today: string): Promise<DashboardPayments> {
  const { rows } = await tx.execute<{ instalments: number; amount: string }>(overdueTotals(tenantId));
  const [totals] = rows;
  const oldest = await listInstallmentRows(
    tx,
    tenantId,
    installmentListQuery.parse({ status: 'overdue', ordering: 'due_date', page_size: DASHBOARD_LIST_ROWS }),
  );
  return {
    overdue_count: totals?.instalments ?? 0,
    overdue_amount: totals?.amount ?? '0.00',
    overdue: oldest.map((row) => ({ ...row, days_overdue: daysBetween(row.due_date, today) })),
  };
}

async function leadsSection(tx: Transaction, tenantId: string): Promise<DashboardLeads> {
  const pipeline = await summarizePipeline(tx, tenantId);
  const latest = await listLeadRows(
    tx,
    tenantId,
    leadListQuery.parse({ ordering: '-created_at', page_size: DASHBOARD_LIST_ROWS }),
  );
  return {
    ...pipeline,
    recent: latest.map((lead) => ({
      id: lead.id,
      display_name: lead.display_name,
      status: lead.status,
      policy_type_name: lead.policy_type_name,
      estimated_premium: lead.estimated_premium,
      created_at: lead.created_at,
    })),
  };
}

/**
 * The agency's dashboard. A section is read only when `modules` (the plan's, as the module gate
 * found them) include the module it comes from, and is null otherwise: a plan without Leads sees no
 * lead figures here either.
 */
export async function readDashboard(
  tx: Transaction,
  tenantId: string,
  modules: readonly ModuleName[],
): Promise<Dashboard> {
  const has = (...needed: ModuleName[]) => needed.every((module) => modules.includes(module));
  const today = await agencyToday(tx);
  return {
    today,
    policies: has('module_policies') ? await policiesSection(tx, tenantId, today) : null,
    commission: has('module_commission_reports') ? await commissionSection(tx, tenantId, today) : null,
    // Premium written is the policies', commission received the commission module's.
    months: has('module_policies', 'module_commission_reports')
      ? await monthlyWrittenAndReceived(tx, tenantId, DASHBOARD_MONTHS)
      : null,
    payments: has('module_payments') ? await paymentsSection(tx, tenantId, today) : null,
    leads: has('module_leads') ? await leadsSection(tx, tenantId) : null,
    claims: has('module_claims') ? { open_count: await countOpenClaims(tx, tenantId) } : null,
    agenda: has('module_calendar')
      ? await listCalendarEvents(tx, tenantId, {
          start: today,
          end: today,
          kinds: calendarKindsFor(modules),
        })
      : null,
  };
}
