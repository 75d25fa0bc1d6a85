import type { ImportKind, ImportPreview, ImportRecord, ImportSettingsBody } from '@coverdesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  detail: (id: string) => [...queryKeys.imports, id] as const,
  preview: (id: string) => [...queryKeys.imports, id, 'preview'] as const,
};

/** Every screen an import can change. */
const IMPORTED = [
  queryKeys.customers,
  queryKeys.policies,
  queryKeys.leads,
  queryKeys.companies,
  queryKeys.policyTypes,
  queryKeys.usage,
  queryKeys.dashboard,
  // A policy import records what the book had already paid.
  queryKeys.payments,
  queryKeys.commissionReport,
  queryKeys.analytics,
];

const isRunning = (record: ImportRecord | undefined) =>
  record?.status === 'queued' || record?.status === 'running';

/** The import, polled every second while it runs, so a reload picks its progress up again. */
export function useImport(id: string | null) {
  const markChanged = useMarkChanged(IMPORTED);
  return useQuery({
    queryKey: keys.detail(id ?? ''),
    enabled: id !== null,
    queryFn: async ({ signal }) => {
      const record = await api.get<ImportRecord>(`/imports/${id}/`, { signal });
      if (record.status === 'done') markChanged();
      return record;
    },
    refetchInterval: (query) => (isRunning(query.state.data) ? 1000 : false),
  });
}

export function useImportPreview(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.preview(id),
    enabled,
    queryFn: ({ signal }) => api.get<ImportPreview>(`/imports/${id}/preview/`, { signal }),
    staleTime: 0,
    gcTime: 0,
  });
}

export function useUploadImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) =>
      api.post<ImportRecord>('/imports/', file, { query: { kind, file_name: file.name } }),
    onSuccess: (record) => client.setQueryData(keys.detail(record.id), record),
  });
}

/**
 * Saves the import's settings. The dry run is checked again after a change of columns; a choice that
 * changes no row's fate (what becomes of past instalments) keeps it (`keepPreview`).
 */
export function useSaveImportSettings(id: string, { keepPreview = false } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: ImportSettingsBody) => api.put<ImportRecord>(`/imports/${id}/`, settings),
    onSuccess: (record) => {
      client.setQueryData(keys.detail(id), record);
      if (!keepPreview) client.removeQueries({ queryKey: keys.preview(id) });
    },
  });
}

export function useStartImport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ImportRecord>(`/imports/${id}/start/`),
    onSuccess: (record) => client.setQueryData(keys.detail(id), record),
  });
}
