import { SEARCH_DEFAULT_LIMIT, type SearchStatus, type SearchType } from '@coverdesk/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { TYPING_DEBOUNCE_MS } from '../../lib/use-debounced-draft.js';
import { type SearchRequest, useSearch } from './api.js';

/** The advanced filter as the panel edits it: '' is no filter. */
export interface SearchFilterValues {
  type: SearchType;
  date_from: string;
  date_to: string;
  company: string;
  status: SearchStatus;
  amount_min: string;
  amount_max: string;
}

export const NO_FILTERS: SearchFilterValues = {
  type: 'all',
  date_from: '',
  date_to: '',
  company: '',
  status: 'all',
  amount_min: '',
  amount_max: '',
};

/** How many filters narrow the search, for the filter button's badge. */
export const activeFilterCount = (filters: SearchFilterValues): number =>
  Object.entries(filters).filter(([name, value]) => value !== NO_FILTERS[name as keyof SearchFilterValues])
    .length;

/** Only what narrows is sent, so the same search is one cached answer however it was reached. */
function requestOf(text: string, filters: SearchFilterValues, limit: number): SearchRequest {
  const request: SearchRequest = { q: text.trim(), limit: String(limit) };
  for (const [name, value] of Object.entries(filters)) {
    if (value !== NO_FILTERS[name as keyof SearchFilterValues]) request[name as keyof SearchRequest] = value;
  }
  return request;
}

/**
 * One search box's state: the text as typed, sent 300 ms after the last key (the spec's debounce),
 * and the applied filters. An empty text without filters asks nothing (the spec's rule).
 */
export function useSearchState(limit = SEARCH_DEFAULT_LIMIT) {
  const [text, setText] = useState('');
  const [filters, setFilters] = useState(NO_FILTERS);
  const [sent] = useDebouncedValue(text, TYPING_DEBOUNCE_MS);
  const request = requestOf(sent, filters, limit);
  const active = sent.trim() !== '' || activeFilterCount(filters) > 0;
  const query = useSearch(request, active);
  const typing = text.trim() !== sent.trim();
  return {
    text,
    setText,
    filters,
    setFilters,
    /** Whether there is anything to show: a sent text or a filter. */
    active: active || (typing && text.trim() !== ''),
    searching: typing || (active && query.isFetching),
    answer: active ? query.data : undefined,
    /** The text the shown answer is for. */
    sentText: sent.trim(),
    reset() {
      setText('');
      setFilters(NO_FILTERS);
    },
  };
}

export type SearchState = ReturnType<typeof useSearchState>;
