import type { CommissionReport, CommissionReportRow, Paged, Policy } from '@coverdesk/contract';
import { api } from '../../lib/api-client.js';

// The diagnostics call the API client directly, not through the query cache: a support engineer
// wants what the server answers now, with the signed-in user's token and its refresh.

type Query = Record<string, string | number | undefined>;

/** Reports how far a walk through the pages has got. */
export type OnPage = (done: number, total: number) => void;

/** Every policy of a policy-list query, 100 at a time. */
export async function allPolicies(query: Query, onPage?: OnPage, signal?: AbortSignal): Promise<Policy[]> {
  const policies: Policy[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get<Paged<Policy>>('/policies/', {
      query: { ...query, page, page_size: 100 },
      signal,
    });
    policies.push(...answer.results);
    onPage?.(policies.length, answer.count);
    if (!answer.next || answer.results.length === 0) return policies;
  }
}

/** The report's first page (with its summaries) and the rows of every page, 100 at a time. */
export async function wholeCommissionReport(
  query: Query,
  onPage?: OnPage,
  signal?: AbortSignal,
): Promise<{ first: CommissionReport; rows: CommissionReportRow[] }> {
  const rows: CommissionReportRow[] = [];
  let first: CommissionReport | undefined;
  for (let page = 1; ; page++) {
    const answer = await api.get<CommissionReport>('/policies/commission_batch/', {
      query: { ...query, include: 'commission_data', page, page_size: 100 },
      signal,
    });
    first ??= answer;
    rows.push(...answer.commission_data);
    onPage?.(rows.length, answer.pagination.total_items);
    if (!answer.pagination.has_next) return { first, rows };
  }
}
