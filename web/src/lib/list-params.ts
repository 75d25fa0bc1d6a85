import { DEFAULT_PAGE_SIZE } from '@coverdesk/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** Keys a list keeps in the URL besides its own filters. */
const PAGING_KEYS = ['page', 'search', 'ordering'];

export interface ListParams<Filter extends string> {
  page: number;
  search: string;
  ordering: string;
  filters: Partial<Record<Filter, string>>;
  /** Whether anything narrows the list (search or a filter), for "no matches" vs "empty". */
  narrowed: boolean;
  /** The query for the API: page, page size, search, ordering and filters that are set. */
  query: Record<string, string | number>;
  /** The same without paging, for the list's export: every row the search and filters match. */
  exportQuery: Record<string, string | number>;
  /** Changes some values; any change but the page itself goes back to page 1. */
  set(changes: Record<string, string | number | null>): void;
  clear(): void;
}

/**
 * A list's page, search, sort and filters, kept in the URL so a view can be shared, bookmarked and
 * survives reload. `mobile=true` and other unrelated parameters are left alone.
 */
export function useListParams<Filter extends string>(
  filterKeys: readonly Filter[],
  defaultOrdering: string,
): ListParams<Filter> {
  const [params, setParams] = useSearchParams();

  const set = useCallback<ListParams<Filter>['set']>(
    (changes) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '' || value === undefined) next.delete(key);
            else next.set(key, String(value));
          }
          if (!('page' in changes)) next.delete('page');
          if (next.get('page') === '1') next.delete('page');
          if (next.get('ordering') === defaultOrdering) next.delete('ordering');
          return next;
        },
        { replace: true },
      );
    },
    [setParams, defaultOrdering],
  );

  return useMemo(() => {
    const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
    const search = params.get('search') ?? '';
    const ordering = params.get('ordering') ?? defaultOrdering;
    const filters: Partial<Record<Filter, string>> = {};
    for (const key of filterKeys) {
      const value = params.get(key);
      if (value) filters[key] = value;
    }
    const query: Record<string, string | number> = {
      page,
      page_size: DEFAULT_PAGE_SIZE,
      ordering,
      ...filters,
    };
    if (search) query.search = search;
    const { page: _page, page_size: _size, ...exportQuery } = query;
    return {
      page,
      search,
      ordering,
      filters,
      narrowed: search !== '' || Object.keys(filters).length > 0,
      query,
      exportQuery,
      set,
      clear: () => set(Object.fromEntries([...PAGING_KEYS, ...filterKeys].map((key) => [key, null]))),
    };
  }, [params, filterKeys, defaultOrdering, set]);
}
