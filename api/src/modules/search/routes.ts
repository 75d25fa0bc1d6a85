import {
  detailResponse,
  fieldErrorsResponse,
  MODULE_LABELS,
  SEARCH_RESULT_MODULES,
  SEARCH_RESULT_TYPES,
  SEARCH_TYPE_OF,
  type SearchFilter,
  type SearchResponse,
  searchHasFilters,
  searchQuery,
  searchResponse,
  searchResultTypesFor,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { withModule } from '../billing/access.js';
import { companyExists } from '../companies/queries.js';
import { searchRecords } from './queries.js';

const tags = ['search'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };

const echoed = (query: SearchFilter): SearchResponse['filters'] => ({
  type: query.type,
  date_from: query.date_from ?? null,
  date_to: query.date_to ?? null,
  company: query.company ?? null,
  status: query.status,
  amount_min: query.amount_min ?? null,
  amount_max: query.amount_max ?? null,
});

/** The global search of the header and the Cmd/Ctrl-K spotlight. */
export const searchRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/search/',
      {
        schema: {
          tags,
          summary: "Search the agency's customers, policies, payments, insurers, leads and claims",
          description: `Typo-tolerant: names, emails and insurer names by trigram similarity; phones by their digits in any formatting; policy and claim numbers without punctuation or case, by any start or end (by resemblance only when the text has a digit); policies also by what they insure. Ranked: an exact number, phone, name or email first, then what starts with the text, then the most similar. Each kind comes from a module (${SEARCH_RESULT_TYPES.map((kind) => `${kind}: ${MODULE_LABELS[SEARCH_RESULT_MODULES[kind]]}`).join(', ')}); kinds the plan leaves out are never searched, and asking for one by \`type\` is 403. An empty \`q\` without filters answers no results. A filter a kind cannot meet (an amount for customers, a status for leads) leaves that kind out.`,
          security: bearerAuth,
          querystring: searchQuery,
          response: { 200: searchResponse, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const asked =
          query.type === 'all'
            ? undefined
            : SEARCH_RESULT_TYPES.find((kind) => SEARCH_TYPE_OF[kind] === query.type);
        const results = await withModule(
          ctx,
          request,
          asked && SEARCH_RESULT_MODULES[asked],
          async (tx, { tenantId }, modules) => {
            // Another agency's insurer reads like one that never existed, as everywhere else.
            if (query.company && !(await companyExists(tx, tenantId, query.company))) {
              throw notFound('Company not found.');
            }
            if (query.q.trim() === '' && !searchHasFilters(query)) return [];
            return searchRecords(tx, tenantId, query, searchResultTypesFor(modules, query.type));
          },
        );
        return { results, total: results.length, query: query.q.trim(), filters: echoed(query) };
      },
    );
  };
