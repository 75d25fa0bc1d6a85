import type {
  CustomerAnalytics,
  CustomerAnalyticsPeriod,
  PortfolioAnalytics,
  PortfolioHistory,
  PortfolioHistoryMonths,
} from '@coverdesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

// Analytics stay fresh for five minutes (the spec's lifetime); a payment or a policy change drops
// them sooner (see the `affected` lists of payments and policies).
const keys = {
  customers: (period: CustomerAnalyticsPeriod) => [...queryKeys.analytics, 'customers', period] as const,
  portfolio: [...queryKeys.analytics, 'portfolio'] as const,
  history: (months: PortfolioHistoryMonths) => [...queryKeys.analytics, 'portfolio-history', months] as const,
};

/** Customer analytics over a period; the previous period's figures stay up while the next load. */
export function useCustomerAnalytics(period: CustomerAnalyticsPeriod) {
  return useQuery({
    queryKey: keys.customers(period),
    queryFn: ({ signal }) =>
      api.get<CustomerAnalytics>('/analytics/customers/', { query: { period }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The book in force today. */
export function usePortfolio() {
  return useQuery({
    queryKey: keys.portfolio,
    queryFn: ({ signal }) => api.get<PortfolioAnalytics>('/analytics/portfolio/', { signal }),
  });
}

/** The book month by month over the last 12, 24 or 36 months. */
export function usePortfolioHistory(months: PortfolioHistoryMonths) {
  return useQuery({
    queryKey: keys.history(months),
    queryFn: ({ signal }) =>
      api.get<PortfolioHistory>('/analytics/portfolio-history/', { query: { months }, signal }),
    placeholderData: keepPreviousData,
  });
}
