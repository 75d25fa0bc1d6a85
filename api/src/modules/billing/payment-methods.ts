import {
  detailResponse,
  fieldErrorsResponse,
  paymentMethodBody,
  paymentMethodCheckout,
  paymentMethodList,
  paymentMethodUpdateBody,
  type SavedPaymentMethod,
  savedPaymentMethod,
  uuid,
} from '@coverdesk/contract';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, notFound } from '../../http/errors.js';
import { users } from '../accounts/tables.js';
import { changingBilling } from './demo-guard.js';
import type { PaymentProvider } from './providers.js';
import { lockSubscription } from './record.js';
import { paymentMethods } from './tables.js';

type Row = typeof paymentMethods.$inferSelect;

const toMethod = (row: Row): SavedPaymentMethod => ({
  id: row.id,
  provider: 'manual',
  type: 'card',
  brand: row.brand,
  last4: row.last4,
  expiry_month: row.expiryMonth,
  expiry_year: row.expiryYear,
  holder_name: row.holderName,
  is_default: row.isDefault,
  created_at: row.createdAt.toISOString(),
});

const methodNotFound = () => notFound('No payment method with this id.');
/** A card recorded here has a uuid; Paddle's saved cards have ids such as `paymtd_01h…`. */
const PADDLE_METHOD_ID = /^paymtd_[a-z\d]{26}$/;
const idParams = z.object({ id: uuid });
const anyMethodParams = z.object({
  id: z.union([uuid, z.string().regex(PADDLE_METHOD_ID)], { error: 'Enter a payment method id.' }),
});

/**
 * The agency's payment methods: Paddle's saved cards when the subscription is Paddle's (added in its
 * own checkout), otherwise the cards recorded here with the manual provider, one of them the default.
 */
export const paymentMethodRoutes =
  ({ db }: AppContext, providerNow: () => Promise<PaymentProvider>): FastifyPluginAsyncZod =>
  async (app) => {
    const subscriptionOf = async (tx: Transaction, tenantId: string) => {
      const locked = await lockSubscription(tx, tenantId);
      if (!locked) throw notFound('This agency has no subscription.');
      return locked.row;
    };

    const list = (tenantId: string) =>
      withTenant(db, tenantId, async (tx) => {
        const fromProvider = await (await providerNow()).listPaymentMethods(
          await subscriptionOf(tx, tenantId),
        );
        if (fromProvider) return fromProvider;
        const rows = await tx
          .select()
          .from(paymentMethods)
          .where(eq(paymentMethods.tenantId, tenantId))
          .orderBy(desc(paymentMethods.isDefault), asc(paymentMethods.createdAt));
        return rows.map(toMethod);
      });

    /** Changes to recorded cards are the manual provider's; Paddle keeps its cards itself. */
    const manualOnly = async (tx: Transaction, tenantId: string) => {
      const subscription = await subscriptionOf(tx, tenantId);
      if (subscription.provider === 'paddle') {
        throw conflict({
          detail: "Paddle keeps your cards: use Add payment method to open Paddle's checkout.",
        });
      }
    };

    const findMethod = async (tx: Transaction, tenantId: string, id: string) => {
      const [row] = await tx
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.tenantId, tenantId), eq(paymentMethods.id, id)));
      if (!row) throw methodNotFound();
      return row;
    };

    const makeDefault = async (tx: Transaction, tenantId: string, id: string) => {
      await tx
        .update(paymentMethods)
        .set({ isDefault: false })
        .where(and(eq(paymentMethods.tenantId, tenantId), ne(paymentMethods.id, id)));
      const [row] = await tx
        .update(paymentMethods)
        .set({ isDefault: true })
        .where(and(eq(paymentMethods.tenantId, tenantId), eq(paymentMethods.id, id)))
        .returning();
      if (!row) throw methodNotFound();
      return row;
    };

    const schema = (summary: string, extra: object, ok: z.ZodType, okStatus = 200) => ({
      schema: {
        tags: ['billing'],
        summary,
        security: bearerAuth,
        ...extra,
        response: { [okStatus]: ok, 400: fieldErrorsResponse, 404: detailResponse, 409: detailResponse },
      },
    });

    app.get(
      '/billing/payment-methods/',
      schema('Payment methods', {}, paymentMethodList),
      async (request) => {
        const results = await list(signedInUser(request).tenantId);
        return { count: results.length, next: null, previous: null, results };
      },
    );

    app.get(
      '/billing/payment-methods/default/',
      schema('The payment method charged', {}, savedPaymentMethod),
      async (request) => {
        const found = (await list(signedInUser(request).tenantId)).find((method) => method.is_default);
        if (!found) throw notFound('No payment method is saved yet.');
        return found;
      },
    );

    app.post(
      '/billing/payment-methods/add/',
      changingBilling(
        db,
        schema('Record a card (manual provider)', { body: paymentMethodBody }, savedPaymentMethod, 201),
      ),
      async (request, reply) => {
        const { tenantId } = signedInUser(request);
        const body = paymentMethodBody.parse(request.body);
        return withTenant(db, tenantId, async (tx) => {
          await manualOnly(tx, tenantId);
          const [first] = await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(eq(paymentMethods.tenantId, tenantId))
            .limit(1);
          const [row] = await tx
            .insert(paymentMethods)
            .values({
              tenantId,
              brand: body.brand,
              last4: body.last4,
              expiryMonth: body.expiry_month,
              expiryYear: body.expiry_year,
              holderName: body.holder_name,
              // The first card is the one charged.
              isDefault: !first,
            })
            .returning();
          if (!row) throw new Error('insert returned no row');
          reply.code(201);
          return toMethod(row);
        });
      },
    );

    app.put(
      '/billing/payment-methods/:id/',
      changingBilling(
        db,
        schema(
          'Update a card (manual provider)',
          { params: idParams, body: paymentMethodUpdateBody },
          savedPaymentMethod,
        ),
      ),
      async (request) => {
        const { tenantId } = signedInUser(request);
        const body = paymentMethodUpdateBody.parse(request.body);
        return withTenant(db, tenantId, async (tx) => {
          await manualOnly(tx, tenantId);
          const [row] = await tx
            .update(paymentMethods)
            .set({
              expiryMonth: body.expiry_month,
              expiryYear: body.expiry_year,
              holderName: body.holder_name,
            })
            .where(
              and(
                eq(paymentMethods.tenantId, tenantId),
                eq(paymentMethods.id, idParams.parse(request.params).id),
              ),
            )
            .returning();
          if (!row) throw methodNotFound();
          return toMethod(row);
        });
      },
    );

    app.post(
      '/billing/payment-methods/:id/set-default/',
      changingBilling(
        db,
        schema('Charge this card from now on (manual provider)', { params: idParams }, savedPaymentMethod),
      ),
      async (request) => {
        const { tenantId } = signedInUser(request);
        return withTenant(db, tenantId, async (tx) => {
          await manualOnly(tx, tenantId);
          return toMethod(await makeDefault(tx, tenantId, idParams.parse(request.params).id));
        });
      },
    );

    // Last, so the probe's checks of the other calls find the agency's card still there.
    app.delete(
      '/billing/payment-methods/:id/delete/',
      changingBilling(
        db,
        schema('Remove a payment method', { params: anyMethodParams }, z.object({ detail: z.string() })),
      ),
      async (request) => {
        const { tenantId } = signedInUser(request);
        const { id } = anyMethodParams.parse(request.params);
        await withTenant(db, tenantId, async (tx) => {
          const subscription = await subscriptionOf(tx, tenantId);
          if (subscription.provider === 'paddle') {
            await (await providerNow()).deletePaymentMethod(subscription, id);
            return;
          }
          // Coverdesk records only uuids: a Paddle id names no card of a manual subscription.
          if (PADDLE_METHOD_ID.test(id)) throw methodNotFound();
          const row = await findMethod(tx, tenantId, id);
          await tx.delete(paymentMethods).where(eq(paymentMethods.id, row.id));
          // The oldest card left takes over as the one charged.
          const [next] = await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(eq(paymentMethods.tenantId, tenantId))
            .orderBy(asc(paymentMethods.createdAt))
            .limit(1);
          if (row.isDefault && next) await makeDefault(tx, tenantId, next.id);
        });
        return { detail: 'Payment method removed.' };
      },
    );

    app.post(
      '/billing/payment-methods/add-checkout/',
      changingBilling(db, schema("Paddle's checkout to save a new card", {}, paymentMethodCheckout)),
      async (request) => {
        const { tenantId, userId } = signedInUser(request);
        const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
        const provider = await providerNow();
        const paddle = await withTenant(db, tenantId, async (tx) =>
          provider.paymentMethodCheckout(await subscriptionOf(tx, tenantId), {
            tenantId,
            email: user?.email ?? '',
          }),
        );
        return { provider: provider.name, paddle };
      },
    );
  };
