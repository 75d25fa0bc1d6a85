import {
  detailResponse,
  fieldErrorsResponse,
  installment,
  installmentExportQuery,
  installmentListQuery,
  installmentPage,
  paymentBody,
  paymentCorrectionBody,
  toCents,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, fieldError, notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { exportRoute } from '../../http/table-file.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import {
  addPayment,
  exportInstallments,
  findInstallment,
  installmentFile,
  listInstallments,
  lockInstallment,
  refreshPolicyTotals,
  setPayment,
} from './queries.js';

const idParams = z.object({ id: uuid });
const tags = ['payments'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const MODULE = 'module_payments';
const NOT_FOUND = 'Instalment not found.';

async function requireLockedInstallment(tx: Transaction, tenantId: string, id: string) {
  const found = await lockInstallment(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  if (found.status === 'cancelled') {
    throw conflict({ detail: 'This instalment was cancelled with its policy: nothing is due on it.' });
  }
  return found;
}

/** After a payment change: the policy's totals follow, and the instalment is answered as it now is. */
async function settle(tx: Transaction, tenantId: string, id: string, policyId: string) {
  await refreshPolicyTotals(tx, tenantId, policyId);
  const changed = await findInstallment(tx, tenantId, id);
  if (!changed) throw notFound(NOT_FOUND);
  return changed;
}

/** Collecting premiums: every instalment the agency is owed, and the payments recorded on them. */
export const paymentRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(
      exportRoute(ctx, {
        path: '/installments/export/',
        module: MODULE,
        tags,
        summary: 'Instalments as a CSV or XLSX file',
        description:
          "Every instalment the list's `search`, filters and `ordering` match, in the list's order; an unpaid instalment due before today reads `overdue`.",
        querystring: installmentExportQuery,
        list: 'payments',
        sheet: 'Payments',
        columns: installmentFile.columns,
        rows: exportInstallments,
      }),
    );

    app.get(
      '/installments/',
      {
        schema: {
          tags,
          summary: "Instalments across the agency's policies, filtered and sorted",
          description:
            '`status` is a stored status, `due` (not paid yet) or `overdue` (not paid and due before today). `search` matches the policy number and the customer name; `assigned_to` keeps the instalments of the policies assigned to one member (the list\'s "Mine"). `ordering=attention` lists what is still owed first, by due date (the overdue lead), then the paid.',
          security: bearerAuth,
          querystring: installmentListQuery,
          response: { 200: installmentPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listInstallments(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/installments/:id/payment/',
      {
        schema: {
          tags,
          summary: 'Record a payment on an instalment',
          description:
            'Adds to what has been paid: by default all that remains due, dated today. The instalment becomes paid once covered, partially paid before.',
          security: bearerAuth,
          params: idParams,
          body: paymentBody,
          response: { 200: installment, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const payment = request.body;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const { policyId, remaining } = await requireLockedInstallment(tx, tenantId, id);
          if (toCents(remaining) === 0n) throw fieldError('amount', 'This instalment is already paid.');
          const amount = payment.amount ?? remaining;
          if (toCents(amount) > toCents(remaining)) {
            throw fieldError('amount', `Only ${remaining} remains due on this instalment.`);
          }
          await auditTrail(tx, request).changed(
            'payment',
            id,
            () => addPayment(tx, tenantId, id, { ...payment, amount }),
            'create',
          );
          return settle(tx, tenantId, id, policyId);
        });
      },
    );

    app.put(
      '/installments/:id/payment/',
      {
        schema: {
          tags,
          summary: 'Correct the payment recorded on an instalment',
          description: 'Replaces what was recorded: the amount paid in all, up to the amount due.',
          security: bearerAuth,
          params: idParams,
          body: paymentCorrectionBody,
          response: { 200: installment, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const payment = request.body;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const { policyId, amountDue } = await requireLockedInstallment(tx, tenantId, id);
          if (toCents(payment.amount_paid) > toCents(amountDue)) {
            throw fieldError('amount_paid', `Only ${amountDue} is due on this instalment.`);
          }
          await auditTrail(tx, request).changed('payment', id, () => setPayment(tx, tenantId, id, payment));
          return settle(tx, tenantId, id, policyId);
        });
      },
    );

    app.delete(
      '/installments/:id/payment/',
      {
        schema: {
          tags,
          summary: 'Undo the payment recorded on an instalment',
          description: 'The instalment is pending again, with nothing paid.',
          security: bearerAuth,
          params: idParams,
          response: { 200: installment, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const { policyId } = await requireLockedInstallment(tx, tenantId, id);
          const undo = () =>
            setPayment(tx, tenantId, id, {
              amount_paid: '0',
              paid_date: null,
              payment_method: null,
              reference: '',
            });
          await auditTrail(tx, request).changed('payment', id, undo, 'delete');
          return settle(tx, tenantId, id, policyId);
        });
      },
    );
  };
