import type { InstallmentRow, Paged, PaymentBody, PaymentCorrectionBody } from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

/**
 * A payment shows in the instalment lists, the policy's totals, the insurer's figures, the customer's
 * balance, the commission received in the report and the analytics.
 */
const affected = [
  queryKeys.payments,
  queryKeys.policies,
  queryKeys.companies,
  queryKeys.customers,
  queryKeys.commissionReport,
  queryKeys.analytics,
];

export function useInstallments(query: Record<string, string | number>) {
  return useQuery({
    queryKey: [...queryKeys.payments, 'installments', query],
    queryFn: ({ signal }) => api.get<Paged<InstallmentRow>>('/installments/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Records a payment on an instalment (by default: what remains, today). */
export function useRecordPayment() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PaymentBody }) =>
      api.post<InstallmentRow>(`/installments/${id}/payment/`, body),
    onSuccess: () => markChanged(),
  });
}

/** Sets the payment on an instalment as a whole: amount, date, method and reference. */
export function useCorrectPayment() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PaymentCorrectionBody }) =>
      api.put<InstallmentRow>(`/installments/${id}/payment/`, body),
    onSuccess: () => markChanged(),
  });
}

export function useUndoPayment() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<InstallmentRow>(`/installments/${id}/payment/`),
    onSuccess: () => markChanged(),
  });
}
