import type {
  AcceptStatementBody,
  CommissionStatement,
  CommissionStatementDetail,
  DateOrder,
  Meeting,
  MeetingBody,
  Paged,
  Policy,
  StatementLine,
  StatementLineResolve,
  StatementLineUpdate,
  StatementTotalUpdate,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const STATEMENTS = queryKeys.commissionStatements;
/** Accepting a statement records receipts: the policies and the commission report change too. */
const ACCEPTED = [STATEMENTS, queryKeys.policies, queryKeys.commissionReport, queryKeys.dashboard];

export function useStatements(query: Record<string, string | number>) {
  return useQuery({
    queryKey: [...STATEMENTS, 'list', query],
    queryFn: ({ signal }) =>
      api.get<Paged<CommissionStatement>>('/commission-statements/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

const READING_POLL_MS = 1000;

/** The statement with a page of its lines, of one outcome or all. */
export function useStatement(id: string, outcome: string | null, page: number) {
  return useQuery({
    queryKey: [...STATEMENTS, id, outcome ?? 'all', page],
    queryFn: ({ signal }) =>
      api.get<CommissionStatementDetail>(`/commission-statements/${id}/`, {
        query: { ...(outcome ? { outcome } : {}), page },
        signal,
      }),
    placeholderData: keepPreviousData,
    // A job reads and matches the statement's lines after the upload: its progress, then its review.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? READING_POLL_MS : false),
  });
}

export interface StatementUpload {
  file: File;
  company_id: string;
  statement_date: string;
  total_amount: string;
  columns?: Record<string, string | null>;
  /** Sent once the file's dates were found to fit both orders. */
  date_order?: DateOrder;
}

export function useUploadStatement() {
  const markChanged = useMarkChanged([STATEMENTS]);
  return useMutation({
    mutationFn: ({ file, columns, ...fields }: StatementUpload) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
      if (columns) form.append('columns', JSON.stringify(columns));
      form.append('file', file, file.name);
      return api.post<CommissionStatementDetail>('/commission-statements/', form, { retry: false });
    },
    onSuccess: () => markChanged(),
  });
}

export function useUpdateLine(id: string) {
  const markChanged = useMarkChanged([STATEMENTS]);
  return useMutation({
    mutationFn: ({ line, ...body }: StatementLineUpdate & { line: number }) =>
      api.patch<StatementLine>(`/commission-statements/${id}/lines/${line}/`, body),
    onSuccess: () => markChanged(),
  });
}

/** Accept (with the broker's word on lines that repeat an accepted statement's) or reopen. */
export function useStatementAction(id: string, action: 'accept' | 'reopen') {
  const markChanged = useMarkChanged(ACCEPTED);
  return useMutation({
    mutationFn: (body?: AcceptStatementBody) =>
      api.post<CommissionStatementDetail>(`/commission-statements/${id}/${action}/`, body),
    onSuccess: () => markChanged(),
  });
}

/** Corrects the typed total of a statement in review. */
export function useCorrectTotal(id: string) {
  const markChanged = useMarkChanged([STATEMENTS]);
  return useMutation({
    mutationFn: (body: StatementTotalUpdate) =>
      api.patch<CommissionStatementDetail>(`/commission-statements/${id}/`, body),
    onSuccess: () => markChanged(),
  });
}

/** Marks an unmatched line as not ours or written off, or (null) takes the mark back. */
export function useResolveLine(id: string) {
  const markChanged = useMarkChanged([STATEMENTS]);
  return useMutation({
    mutationFn: ({ line, body }: { line: number; body: StatementLineResolve | null }) => {
      const url = `/commission-statements/${id}/lines/${line}/resolution/`;
      return body ? api.put<StatementLine>(url, body) : api.delete<StatementLine>(url);
    },
    onSuccess: () => markChanged(),
  });
}

/** Confirms every fuzzy match of the statement at once. */
export function useConfirmMatches(id: string) {
  const markChanged = useMarkChanged([STATEMENTS]);
  return useMutation({
    mutationFn: () => api.post<{ confirmed: number }>(`/commission-statements/${id}/confirm-matches/`, {}),
    onSuccess: () => markChanged(),
  });
}

export function useDeleteStatement(id: string) {
  const markChanged = useMarkChanged([STATEMENTS]);
  return useMutation({
    mutationFn: () => api.delete<void>(`/commission-statements/${id}/`),
    onSuccess: () => markChanged({ deleted: true }),
  });
}

/** The insurer's policies a line may be matched to, found by number or customer. */
export function useInsurerPolicies(companyId: string, search: string) {
  return useQuery({
    queryKey: [...queryKeys.policies, 'statement-match', companyId, search],
    queryFn: ({ signal }) =>
      api.get<Paged<Policy>>('/policies/', {
        query: { company_id: companyId, search, page_size: 20 },
        signal,
      }),
    enabled: companyId !== '',
  });
}

/** A follow-up of a short payment, as an all-day entry on the broker's calendar. */
export function useScheduleFollowUp() {
  const markChanged = useMarkChanged([queryKeys.calendar]);
  return useMutation({
    mutationFn: (body: MeetingBody) => api.post<Meeting>('/calendar/meetings/', body),
    onSuccess: () => markChanged(),
  });
}
