import type { InstallmentRow, Paged } from '@coverdesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

export function useInstallments(query: Record<string, string | number>) {
  return useQuery({
    queryKey: [...queryKeys.payments, 'installments', query],
    queryFn: ({ signal }) => api.get<Paged<InstallmentRow>>('/installments/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}
