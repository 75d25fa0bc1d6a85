import { DEFAULT_PAGE_SIZE } from '@coverdesk/contract';
import { useListParams } from '../../lib/list-params.js';
import { useAgencyToday } from '../../lib/use-agency-today.js';
import { DEFAULT_PERIOD, isPeriod, periodRange } from './period.js';

/** What the report keeps in the URL besides page, search and sort. */
const FILTERS = [
  'period',
  'start_date',
  'end_date',
  'company_id',
  'policy_type_id',
  'payment_status',
] as const;
type Filter = (typeof FILTERS)[number];

/** Filters that narrow the policies of a period (the period itself is always there). */
const NARROWING: readonly Filter[] = ['company_id', 'policy_type_id', 'payment_status'];

/** Only what is set reaches the API: a blank date or an unchosen insurer filters nothing (spec section 5). */
const setOnly = (values: Record<string, string | number | undefined>) =>
  Object.fromEntries(
    Object.entries(values).filter(
      (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '',
    ),
  );

/**
 * The report's view from the URL: the period (a preset reckoned from the agency's today, or the
 * broker's own dates), the filters, and the queries for the report and its exports.
 */
export function useReportParams() {
  const params = useListParams(FILTERS, '-start_date');
  const today = useAgencyToday();
  const { filters } = params;
  const period = isPeriod(filters.period) ? filters.period : DEFAULT_PERIOD;
  const range = periodRange(period, today, { start: filters.start_date, end: filters.end_date });
  const chosen = setOnly({
    start_date: range.start,
    end_date: range.end,
    company_id: filters.company_id,
    policy_type_id: filters.policy_type_id,
    payment_status: filters.payment_status,
    search: params.search,
    ordering: params.ordering,
  });
  return {
    params,
    period,
    range,
    /** A page of the report. */
    query: { ...chosen, page: params.page, page_size: DEFAULT_PAGE_SIZE },
    /** Every row of the report, for a file. */
    exportQuery: chosen,
    /** Whether something besides the period narrows the policies ("no match" rather than "none in this period"). */
    narrowed: params.search !== '' || NARROWING.some((filter) => filters[filter]),
  };
}

export type ReportParams = ReturnType<typeof useReportParams>;
