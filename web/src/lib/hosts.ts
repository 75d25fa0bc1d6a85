import { useLocation } from 'react-router';

/** An admin hostname (admin.example.com, adminapp.example.com) serves only the admin portal. */
export function isAdminHost(hostname: string): boolean {
  return hostname.includes('adminapp.') || hostname.includes('admin.');
}

/** Whether this page belongs to the admin portal: a path under /admin, or any page of the admin host. */
export function useInAdminPortal(): boolean {
  return useLocation().pathname.startsWith('/admin') || isAdminHost(window.location.hostname);
}

/** A page of the broker app, from the admin host or from the broker app itself. */
export function mainAppUrl(location: Pick<Location, 'protocol' | 'host'>, path: string): string {
  const host = location.host.replace(/(^|\.)adminapp\./, '$1').replace(/(^|\.)admin\./, '$1');
  return `${location.protocol}//${host}${path}`;
}

/** The broker app's login for someone who reached the admin host without being an admin. */
export const mainAppLoginUrl = (location: Pick<Location, 'protocol' | 'host'>) =>
  mainAppUrl(location, '/login');
