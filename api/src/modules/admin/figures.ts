import {
  adminAnalytics,
  adminBilling,
  adminBillingEventPage,
  adminBillingEventQuery,
  adminDashboard,
  adminRevenue,
  agencyUsagePage,
  agencyUsageQuery,
  detailResponse,
  fieldErrorsResponse,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { readAcrossAgencies } from '../../db/platform-read.js';
import { bearerAuth } from '../../http/authenticate.js';
import { pageOf } from '../../http/pagination.js';
import {
  agencyUsage,
  platformAnalytics,
  platformBilling,
  platformBillingEvents,
  platformDashboard,
  platformRevenue,
} from './figures-queries.js';

const tags = ['admin'];
const errors = { 403: detailResponse };

/** The platform's figures: agencies, subscriptions, revenue and feature usage. */
export const adminFigureRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/dashboard/',
      {
        schema: {
          tags,
          summary: 'Agencies, subscriptions by state, MRR, and sign-ups and churn over 12 months',
          security: bearerAuth,
          response: { 200: adminDashboard, ...errors },
        },
      },
      () => readAcrossAgencies(db, platformDashboard),
    );

    app.get(
      '/billing/',
      {
        schema: {
          tags,
          summary: 'Subscriptions by state and the agencies whose payment is past due',
          security: bearerAuth,
          response: { 200: adminBilling, ...errors },
        },
      },
      () => readAcrossAgencies(db, platformBilling),
    );

    app.get(
      '/billing/events/',
      {
        schema: {
          tags,
          summary: "Every agency's billing history, newest first, by agency, type and day",
          security: bearerAuth,
          querystring: adminBillingEventQuery,
          response: { 200: adminBillingEventPage, 400: fieldErrorsResponse, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await readAcrossAgencies(db, (tx) =>
          platformBillingEvents(tx, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/revenue/',
      {
        schema: {
          tags,
          summary: 'MRR and ARR now, by plan and by month, with new, expansion, contraction and churned MRR',
          security: bearerAuth,
          response: { 200: adminRevenue, ...errors },
        },
      },
      () => readAcrossAgencies(db, platformRevenue),
    );

    app.get(
      '/analytics/',
      {
        schema: {
          tags,
          summary: 'Records across all agencies, and users signed in per day over 30 days',
          security: bearerAuth,
          response: { 200: adminAnalytics, ...errors },
        },
      },
      () => readAcrossAgencies(db, platformAnalytics),
    );

    app.get(
      '/analytics/agencies/',
      {
        schema: {
          tags,
          summary: "Each agency's policies, customers, leads, claims and users",
          security: bearerAuth,
          querystring: agencyUsageQuery,
          response: { 200: agencyUsagePage, 400: fieldErrorsResponse, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await readAcrossAgencies(db, (tx) => agencyUsage(tx, request.query));
        return pageOf(request, request.query, count, results);
      },
    );
  };
