import type {
  AdminAnalytics,
  AdminBilling,
  AdminBillingEvent,
  AdminDashboard,
  AdminRevenue,
  AgencyUsage,
  Paged,
} from '@coverdesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

// The platform's figures move with every agency's change: asked afresh each time a screen opens
// and never kept on disk, like the agency dashboard's.
const platform = [...queryKeys.dashboard, 'platform'] as const;

const keys = {
  dashboard: [...platform, 'dashboard'] as const,
  billing: [...platform, 'billing'] as const,
  billingEvents: (query: Record<string, string | number>) => [...platform, 'billing-events', query] as const,
  revenue: [...platform, 'revenue'] as const,
  analytics: [...platform, 'analytics'] as const,
  agencies: (query: Record<string, string | number>) => [...platform, 'agencies', query] as const,
};

export const usePlatformDashboard = () =>
  useQuery({
    queryKey: keys.dashboard,
    queryFn: ({ signal }) => api.get<AdminDashboard>('/admin/dashboard/', { signal }),
  });

export const usePlatformBilling = () =>
  useQuery({
    queryKey: keys.billing,
    queryFn: ({ signal }) => api.get<AdminBilling>('/admin/billing/', { signal }),
  });

export const usePlatformBillingEvents = (query: Record<string, string | number>) =>
  useQuery({
    queryKey: keys.billingEvents(query),
    queryFn: ({ signal }) => api.get<Paged<AdminBillingEvent>>('/admin/billing/events/', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePlatformRevenue = () =>
  useQuery({
    queryKey: keys.revenue,
    queryFn: ({ signal }) => api.get<AdminRevenue>('/admin/revenue/', { signal }),
  });

export const usePlatformAnalytics = () =>
  useQuery({
    queryKey: keys.analytics,
    queryFn: ({ signal }) => api.get<AdminAnalytics>('/admin/analytics/', { signal }),
  });

export const useAgencyUsage = (query: Record<string, string | number>) =>
  useQuery({
    queryKey: keys.agencies(query),
    queryFn: ({ signal }) => api.get<Paged<AgencyUsage>>('/admin/analytics/agencies/', { query, signal }),
    placeholderData: keepPreviousData,
  });
