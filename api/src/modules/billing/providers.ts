import type { BillingCycle, BillingProvider, PaddleCheckout, SavedPaymentMethod } from '@coverdesk/contract';
import { Environment, Paddle } from '@paddle/paddle-node-sdk';
import type { PaddleConfig } from '../../config.js';
import { conflict, HttpError } from '../../http/errors.js';
import { SecretUnreadable } from '../platform-settings/secrets.js';
import type { PlatformSettings } from '../platform-settings/store.js';
import { tenantSignature } from './paddle-signatures.js';
import type { PlanRow } from './record.js';
import type { subscriptions } from './tables.js';

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Who the checkout is for; Paddle returns the tenant id in every event of the subscription it makes. */
export interface Payer {
  tenantId: string;
  email: string;
}

/**
 * The payment provider behind billing actions. Each call tells the provider first; the change is then
 * applied to Coverdesk's own record in the same request (the provider's webhooks confirm it later).
 */
export interface PaymentProvider {
  name: BillingProvider;
  /** What the browser opens to pay for a plan, or null when the manual provider applies it at once. */
  checkout(payer: Payer, plan: PlanRow, cycle: BillingCycle): Promise<PaddleCheckout | null>;
  cancel(row: SubscriptionRow, immediate: boolean): Promise<void>;
  pause(row: SubscriptionRow): Promise<void>;
  resume(row: SubscriptionRow): Promise<void>;
  changePlan(row: SubscriptionRow, plan: PlanRow, cycle: BillingCycle, immediate: boolean): Promise<void>;
  /** The checkout in which the payer saves a new card for the subscription. */
  paymentMethodCheckout(row: SubscriptionRow, payer: Payer): Promise<PaddleCheckout | null>;
  /** The provider's saved cards, or null when Coverdesk keeps them (the manual provider). */
  listPaymentMethods(row: SubscriptionRow): Promise<SavedPaymentMethod[] | null>;
  deletePaymentMethod(row: SubscriptionRow, id: string): Promise<void>;
}

const nothing = async () => {};

/** Without a payment provider: every change applies at once and is recorded as manual. */
export const manualProvider: PaymentProvider = {
  name: 'manual',
  checkout: async () => null,
  cancel: nothing,
  pause: nothing,
  resume: nothing,
  changePlan: nothing,
  paymentMethodCheckout: async () => null,
  listPaymentMethods: async () => null,
  deletePaymentMethod: nothing,
};

/** Paddle Billing, the merchant of record: it takes the payment, the tax and the cards. */
export function paddleProvider(config: PaddleConfig): PaymentProvider {
  const paddle = new Paddle(config.apiKey, {
    environment: config.environment === 'production' ? Environment.production : Environment.sandbox,
  });
  const overlay = (payer: Payer, fields: Pick<PaddleCheckout, 'price_id' | 'transaction_id'>) => ({
    environment: config.environment,
    client_token: config.clientToken,
    customer_email: payer.email,
    // The browser hands this to Paddle unchanged; the webhook trusts the agency id only with its signature.
    custom_data: {
      tenant_id: payer.tenantId,
      tenant_sig: tenantSignature(config.webhookSecret, payer.tenantId),
    },
    ...fields,
  });
  /** Only a subscription Paddle made can be changed at Paddle; a manual one changes here alone. */
  const paddleId = (row: SubscriptionRow) =>
    row.provider === 'paddle' && row.providerSubscriptionId ? row.providerSubscriptionId : null;
  const priceOf = (plan: PlanRow, cycle: BillingCycle) => {
    const price = cycle === 'yearly' ? plan.paddlePriceYearlyId : plan.paddlePriceMonthlyId;
    if (!price) throw conflict({ detail: `The ${plan.displayName} plan cannot be bought online yet.` });
    return price;
  };

  return {
    name: 'paddle',
    checkout: async (payer, plan, cycle) =>
      overlay(payer, { price_id: priceOf(plan, cycle), transaction_id: null }),
    async cancel(row, immediate) {
      const id = paddleId(row);
      if (id)
        await paddle.subscriptions.cancel(id, {
          effectiveFrom: immediate ? 'immediately' : 'next_billing_period',
        });
    },
    async pause(row) {
      const id = paddleId(row);
      if (id) await paddle.subscriptions.pause(id, { effectiveFrom: 'immediately' });
    },
    async resume(row) {
      const id = paddleId(row);
      if (!id) return;
      if (row.status === 'paused') await paddle.subscriptions.resume(id, { effectiveFrom: 'immediately' });
      // Taking back a cancellation at period end removes Paddle's scheduled change.
      else await paddle.subscriptions.update(id, { scheduledChange: null });
    },
    async changePlan(row, plan, cycle, immediate) {
      const id = paddleId(row);
      if (!id) return;
      await paddle.subscriptions.update(id, {
        items: [{ priceId: priceOf(plan, cycle), quantity: 1 }],
        // Now: the difference for the rest of the period charged at once. At the period end: Paddle
        // cannot schedule a change of items, so the price changes now unbilled, and the next renewal
        // bills it; Coverdesk keeps the plan paid for until then (see the webhook).
        prorationBillingMode: immediate ? 'prorated_immediately' : 'do_not_bill',
      });
    },
    async paymentMethodCheckout(row, payer) {
      const id = paddleId(row);
      if (!id) throw conflict({ detail: 'Subscribe to a plan first: the card is saved with the payment.' });
      const transaction = await paddle.subscriptions.getPaymentMethodChangeTransaction(id);
      return overlay(payer, { price_id: null, transaction_id: transaction.id });
    },
    async listPaymentMethods(row) {
      if (!row.providerCustomerId) return [];
      const saved = await paddle.paymentMethods.list(row.providerCustomerId).next();
      return saved.map((method, index) => ({
        id: method.id,
        provider: 'paddle' as const,
        type: method.type,
        brand: method.card?.type ?? method.type,
        last4: method.card?.last4 ?? '',
        expiry_month: method.card?.expiryMonth ?? null,
        expiry_year: method.card?.expiryYear ?? null,
        holder_name: method.card?.cardholderName ?? '',
        // Paddle charges the method saved last; it lists newest first.
        is_default: index === 0,
        created_at: method.savedAt,
      }));
    },
    async deletePaymentMethod(row, id) {
      if (row.providerCustomerId) await paddle.paymentMethods.delete(row.providerCustomerId, id);
    },
  };
}

export const providerFor = (paddle: PaddleConfig | undefined): PaymentProvider =>
  paddle ? paddleProvider(paddle) : manualProvider;

/** Paddle's settings in force; saved keys this server cannot open answer 503 (Paddle retries a webhook). */
export const paddleSettings = (settings: PlatformSettings) =>
  settings.paddleConfig().catch((error: unknown) => {
    if (!(error instanceof SecretUnreadable)) throw error;
    throw new HttpError(503, {
      detail: 'Payments are unavailable for a moment: the payment settings cannot be read on this server.',
    });
  });

/**
 * The provider for the Paddle settings in force now (saved in /admin/paddle-setup, else PADDLE_*),
 * made again only when they change. Saved keys this server cannot open stop billing changes rather
 * than fall back to the manual provider, which would hand out plans unpaid.
 */
export function currentProvider(settings: PlatformSettings): () => Promise<PaymentProvider> {
  let last: { signature: string; provider: PaymentProvider } | undefined;
  return async () => {
    const paddle = await paddleSettings(settings);
    const signature = JSON.stringify(paddle ?? null);
    if (last?.signature !== signature) last = { signature, provider: providerFor(paddle) };
    return last.provider;
  };
}
