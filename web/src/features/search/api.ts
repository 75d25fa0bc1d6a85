import { NO_SEARCH_FILTERS, type SearchQuery, type SearchResponse } from '@coverdesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

/** What the search asks for: the text and the applied filters, as the API names them. */
export type SearchRequest = Partial<Record<keyof SearchQuery, string>>;

const emptyAnswer = (request: SearchRequest): SearchResponse => ({
  results: [],
  total: 0,
  query: request.q?.trim() ?? '',
  filters: NO_SEARCH_FILTERS,
});

/**
 * The search answer, kept two minutes (query-client.ts). A failed search, 404 or any other, reads as
 * no results (the spec's rule): the box stays usable and the broker can type on.
 */
export async function fetchSearch(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> {
  try {
    return await api.get<SearchResponse>('/search/', { query: request, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return emptyAnswer(request);
  }
}

export function useSearch(request: SearchRequest, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.search, request],
    queryFn: ({ signal }) => fetchSearch(request, signal),
    enabled,
    // While the next answer loads, the last one stays (and says "Searching..."), so the list does not jump.
    placeholderData: keepPreviousData,
  });
}
