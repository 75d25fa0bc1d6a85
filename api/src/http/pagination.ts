import type { Paged, PageQuery } from '@coverdesk/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendWrittenJson } from './written-json.js';

/** Rows to skip for the requested page. */
export const offsetOf = (query: Pick<PageQuery, 'page' | 'page_size'>) => (query.page - 1) * query.page_size;

/**
 * One page of a list with links to its neighbours: the request's own path and filters with only
 * the page changed, so following `next` keeps the search and sort.
 */
export function pageOf<Item>(
  request: FastifyRequest,
  query: Pick<PageQuery, 'page' | 'page_size'>,
  count: number,
  results: Item[],
): Paged<Item> {
  const lastPage = Math.max(1, Math.ceil(count / query.page_size));
  const link = (page: number) => {
    const url = new URL(request.url, 'http://coverdesk.invalid');
    url.searchParams.set('page', String(page));
    return `${url.pathname}${url.search}`;
  };
  return {
    count,
    next: query.page < lastPage ? link(query.page + 1) : null,
    previous: query.page > 1 ? link(Math.min(query.page - 1, lastPage)) : null,
    results,
  };
}

/** `pageOf` for results the database already wrote as a JSON array, sent as written. */
export function sendJsonPage(
  request: FastifyRequest,
  reply: FastifyReply,
  query: Pick<PageQuery, 'page' | 'page_size'>,
  { count, resultsJson }: { count: number; resultsJson: string },
) {
  const { next, previous } = pageOf(request, query, count, []);
  return sendWrittenJson(
    reply,
    `{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":${resultsJson}}`,
  );
}
