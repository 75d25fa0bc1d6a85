import type {
  CommissionReport,
  CommissionReportRow,
  Company,
  InsurersOwed,
  Paged,
  ProducerReport,
} from '@coverdesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';
import { useFileExport } from '../../lib/use-file-export.js';

type Query = Record<string, string | number>;

const keys = {
  report: (query: Query) => [...queryKeys.commissionReport, query] as const,
  insurers: [...queryKeys.companies, 'report-choices'] as const,
};

/** A report row as the list shows it: keyed by its policy. */
export type ReportRow = CommissionReportRow & { id: string };

const reportOptions = (query: Query) => ({
  queryKey: keys.report(query),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get<CommissionReport>('/policies/commission_batch/', { query, signal }),
  // The figures of the last period stay on screen, dimmed by the list, while the next one loads.
  placeholderData: keepPreviousData,
});

/** The page of rows with the totals over every matching policy and each insurer's. */
export function useCommissionReport(query: Query) {
  return useQuery(reportOptions(query));
}

function asPage(report: CommissionReport): Paged<ReportRow> {
  return {
    count: report.pagination.total_items,
    next: null,
    previous: null,
    results: report.commission_data.map((row) => ({ ...row, id: row.policy_id })),
  };
}

/** The same answer (one request) as the page of rows the shared list component shows. */
export function useCommissionRows(query: Query) {
  return useQuery({ ...reportOptions(query), select: asPage });
}

/** Insurers with the types they sell, for the report's filters. */
export function useInsurerFilterChoices() {
  return useQuery({
    queryKey: keys.insurers,
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Company>>('/companies/', { query: { page_size: 100 }, signal })).results,
  });
}

export type ExportFormat = 'pdf' | 'csv';

/** Makes the report's file with the report's filters and hands it to the browser to save. */
export const useExportReport = (format: ExportFormat) =>
  useFileExport(`/policies/commission_${format}/`, `commission-report.${format}`);

/** Each producer's commission over the period, with their share; the report's period and insurer. */
export function useProducerShares(query: Query) {
  return useQuery({
    queryKey: [...queryKeys.commissionReport, 'producers', query] as const,
    queryFn: ({ signal }) => api.get<ProducerReport>('/commission-report/producers/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** One producer's statement as a file, with the period and insurer on screen. */
export const useProducerStatement = (userId: string, format: ExportFormat) =>
  useFileExport(`/commission-report/producers/${userId}/statement/`, `producer-statement.${format}`);

/** What insurers owe today, by age; the report's insurer filter alone applies. */
export function useInsurersOwed(companyId: string | undefined) {
  const query = companyId ? { company_id: companyId } : {};
  return useQuery({
    queryKey: [...queryKeys.commissionReport, 'insurers-owed', query] as const,
    queryFn: ({ signal }) => api.get<InsurersOwed>('/commission-report/insurers-owed/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}
