import type {
  BillingActionResult,
  BillingEvent,
  ChangePlanBody,
  CheckoutSession,
  CheckoutSessionBody,
  PaddleCheckout,
  Paged,
  PaymentMethodBody,
  PaymentMethodUpdateBody,
  SavedPaymentMethod,
  Subscription,
  SubscriptionCancelBody,
  UpgradeBody,
  UsageSummary,
} from '@coverdesk/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { errorText } from '../../lib/error-message.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

/** Every billing read: an action on the subscription changes them all. */
const BILLING = ['billing'] as const;

/** The spec's message for each billing call that fails, before the server's own reason. */
export const BILLING_FAILURES = {
  current: 'Failed to fetch current subscription',
  usage: 'Failed to fetch usage metrics',
  init: 'Failed to initialize billing data',
  upgrade: 'Failed to upgrade plan',
  checkout: 'Failed to create checkout session',
  cancel: 'Failed to cancel subscription',
  changePlan: 'Failed to change subscription plan',
  withdrawChange: 'Failed to withdraw the plan change',
  reactivate: 'Failed to reactivate subscription',
  pause: 'Failed to pause subscription',
  addPaymentMethod: 'Failed to add payment method',
  updatePaymentMethod: 'Failed to update payment method',
  deletePaymentMethod: 'Failed to delete payment method',
  setDefaultPaymentMethod: 'Failed to set default payment method',
  paymentMethodCheckout: 'Failed to start payment method checkout',
} as const;

/** "Failed to cancel subscription: Your subscription is already cancelled." */
export const billingFailure = (action: keyof typeof BILLING_FAILURES, error: unknown) =>
  `${BILLING_FAILURES[action]}: ${errorText(error)}`;

/** How much of each plan limit the agency uses. */
export function useUsageSummary() {
  return useQuery({
    queryKey: queryKeys.usage,
    queryFn: ({ signal }) => api.get<UsageSummary>('/billing/usage/summary/', { signal }),
  });
}

export function useCurrentSubscription() {
  return useQuery({
    queryKey: [...BILLING, 'current'],
    queryFn: ({ signal }) => api.get<Subscription>('/billing/subscriptions/current/', { signal }),
  });
}

export function useBillingEvents(page: number) {
  return useQuery({
    queryKey: [...BILLING, 'events', page],
    queryFn: ({ signal }) =>
      api.get<Paged<BillingEvent>>(`/billing/events/?page=${page}&page_size=10`, { signal }),
    placeholderData: (previous) => previous,
  });
}

export function usePaymentMethods() {
  return useQuery({
    queryKey: [...BILLING, 'payment-methods'],
    queryFn: ({ signal }) => api.get<Paged<SavedPaymentMethod>>('/billing/payment-methods/', { signal }),
  });
}

/** A mutation whose success changes what billing shows (and the modules the plan opens). */
function useBillingMutation<Body, Result>(call: (body: Body) => Promise<Result>) {
  const markChanged = useMarkChanged([BILLING]);
  return useMutation({ mutationFn: call, onSuccess: () => markChanged() });
}

export const useUpgrade = () =>
  useBillingMutation((body: UpgradeBody) =>
    api.post<BillingActionResult>('/billing/subscriptions/upgrade/', body),
  );

export const useCancelSubscription = () =>
  useBillingMutation((body: SubscriptionCancelBody) =>
    api.post<BillingActionResult>('/billing/subscription/cancel/', body),
  );

export const useChangePlan = () =>
  useBillingMutation((body: ChangePlanBody) =>
    api.post<BillingActionResult>('/billing/subscription/change-plan/', body),
  );

export const useWithdrawScheduledChange = () =>
  useBillingMutation(() =>
    api.post<BillingActionResult>('/billing/subscription/withdraw-scheduled-change/', {}),
  );

export const useReactivate = () =>
  useBillingMutation(() => api.post<BillingActionResult>('/billing/subscription/reactivate/', {}));

export const usePause = () =>
  useBillingMutation(() => api.post<BillingActionResult>('/billing/subscription/pause/', {}));

export const useAddPaymentMethod = () =>
  useBillingMutation((body: PaymentMethodBody) =>
    api.post<SavedPaymentMethod>('/billing/payment-methods/add/', body),
  );

export const useUpdatePaymentMethod = () =>
  useBillingMutation(({ id, ...body }: PaymentMethodUpdateBody & { id: string }) =>
    api.put<SavedPaymentMethod>(`/billing/payment-methods/${id}/`, body),
  );

export const useDeletePaymentMethod = () =>
  useBillingMutation((id: string) =>
    api.delete<{ detail: string }>(`/billing/payment-methods/${id}/delete/`),
  );

export const useSetDefaultPaymentMethod = () =>
  useBillingMutation((id: string) =>
    api.post<SavedPaymentMethod>(`/billing/payment-methods/${id}/set-default/`, {}),
  );

/** Opens Paddle's overlay: for a plan's price, or for a transaction (a new card for the subscription). */
async function openPaddleCheckout(checkout: PaddleCheckout, successUrl: string) {
  const { initializePaddle } = await import('@paddle/paddle-js');
  const paddle = await initializePaddle({ environment: checkout.environment, token: checkout.client_token });
  if (!paddle) throw new Error('Paddle could not be loaded. Check your connection and try again.');
  const base = {
    customer: { email: checkout.customer_email },
    customData: checkout.custom_data,
    settings: { successUrl: new URL(successUrl, window.location.origin).toString() },
  };
  if (checkout.transaction_id) paddle.Checkout.open({ ...base, transactionId: checkout.transaction_id });
  else if (checkout.price_id)
    paddle.Checkout.open({ ...base, items: [{ priceId: checkout.price_id, quantity: 1 }] });
}

/**
 * Pays for a plan: the manual provider has applied it when the call returns; with Paddle the overlay
 * opens, and the subscription changes once Paddle's webhook reports the payment.
 */
export const useCheckout = () =>
  useBillingMutation(async (body: CheckoutSessionBody) => {
    const session = await api.post<CheckoutSession>('/billing/subscriptions/create_checkout_session/', body);
    if (session.paddle) await openPaddleCheckout(session.paddle, session.success_url);
    return session;
  });

/** Paddle's checkout for saving a new card; the manual provider records cards in a form instead. */
export const usePaymentMethodCheckout = () =>
  useBillingMutation(async () => {
    const answer = await api.post<{ paddle: PaddleCheckout | null }>(
      '/billing/payment-methods/add-checkout/',
      {},
    );
    if (answer.paddle) await openPaddleCheckout(answer.paddle, '/billing');
    return answer;
  });
