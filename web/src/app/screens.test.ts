import type { ModuleName } from '@coverdesk/contract';
import { matchRoutes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { appRoutes } from './app-routes.js';
import type { ModuleAccess } from './module-access.js';
import { mainNavigation, menuLabel, userMenu } from './navigation.js';
import type { RouteHandle } from './route-handle.js';
import { isModuleComing, SCREENS, type Screen } from './screens.js';

// The route table is read here without a browser: the sign-in gate and its session stay out.
vi.mock('./guards/require-auth.js', () => ({ RequireAuth: () => null }));

const everything: ModuleAccess = () => true;

/** The handle the header and the access gate read for a path, as useRouteHandle finds it. */
function handleAt(path: string): RouteHandle | undefined {
  const matches = matchRoutes(appRoutes, path) ?? [];
  return matches.map((match) => match.route.handle as RouteHandle | undefined).findLast((h) => h?.title);
}

const pagesAt = (path: string) => matchRoutes(appRoutes, path)?.at(-1)?.route;

describe('the screen registry', () => {
  it('gives every menu entry a route, whose handle is the entry itself', () => {
    const { working, coming } = mainNavigation(everything);
    for (const screen of [...working, ...coming, ...userMenu(everything, 'desktop')]) {
      expect(handleAt(screen.path), screen.path).toBe(screen);
    }
  });

  it('answers every screen, and the pages under it, with its own entry', () => {
    for (const screen of SCREENS as readonly Screen[]) {
      expect(handleAt(screen.path), screen.path).toBe(screen);
    }
    expect(handleAt('/customers/some-id/edit')?.path).toBe('/customers');
    expect(handleAt('/profile/settings')?.path).toBe('/profile/settings');
  });

  it('gives every screen pages of its own now that none is on its way, and leaves unknown paths alone', () => {
    expect(
      (SCREENS as readonly Screen[]).filter((screen) => screen.coming).map((screen) => screen.path),
    ).toEqual([]);
    expect(handleAt('/support/some-id')?.path).toBe('/support');
    expect(pagesAt('/support/new')?.lazy).toBeDefined();
    expect(pagesAt('/support/new')?.lazy).not.toBe(pagesAt('/support/some-id')?.lazy);
    expect(matchRoutes(appRoutes, '/support/some-id/nothing-here')).toBeNull();
    expect(matchRoutes(appRoutes, '/customers/some-id/nothing-here')).toBeNull();
  });

  it('leads the spec’s other paths to their screen', () => {
    for (const [alias, path] of [
      ['/portfolio-analytics', '/current-portfolio'],
      ['/notification-settings', '/notifications-settings'],
    ]) {
      const element = pagesAt(alias ?? '')?.element as { props: { to: string } } | undefined;
      expect(element?.props.to).toBe(path);
    }
  });

  it('lists the main navigation in the spec’s order, the screens on their way after the working ones', () => {
    const spec = [
      'Dashboard',
      'Customers',
      'Policies',
      'Commission Report',
      // Beyond the spec's list: checking the insurers' statements (issue 38).
      'Commission Statements',
      'Customer Analytics',
      'Current Portfolio',
      'Portfolio History',
      'Payments Management',
      'Expiring Policies',
      'Calendar',
      'Leads',
      'Claims',
      'Companies',
      'Notification Settings',
      // Beyond the spec's list: the agency's members and their roles (issue "Agency teams").
      'Team',
    ];
    const { working, coming } = mainNavigation(everything);
    const inSpecOrder = (labels: string[]) => spec.filter((label) => labels.includes(label));
    expect(working.map(menuLabel)).toEqual(inSpecOrder(working.map(menuLabel)));
    expect(coming.map(menuLabel)).toEqual(inSpecOrder(coming.map(menuLabel)));
    expect([...working, ...coming].map(menuLabel).sort()).toEqual([...spec].sort());
  });

  it('lists the user menu in the spec’s order, without Policy Import on a phone', () => {
    expect(userMenu(everything, 'desktop').map(menuLabel)).toEqual([
      'Profile Settings',
      'Companies',
      'Policy Types',
      'Support',
      'Billing',
      'Policy Import',
    ]);
    expect(userMenu(everything, 'mobile').map(menuLabel)).toEqual([
      'Profile Settings',
      'Companies',
      'Policy Types',
      'Support',
      'Billing',
    ]);
  });

  it('leaves out of the menus what the plan does not open', () => {
    const starter: ModuleAccess = (module) =>
      !module ||
      (['module_dashboard', 'module_customers', 'module_policies'] as ModuleName[]).includes(module);
    const { working, coming } = mainNavigation(starter);
    // The team is every plan's: only its number of users differs.
    expect(working.map(menuLabel)).toEqual(['Dashboard', 'Customers', 'Policies', 'Team']);
    expect(coming).toEqual([]);
    expect(userMenu(starter, 'desktop').map(menuLabel)).not.toContain('Companies');
  });

  it('counts a plan module as working once one of its screens works', () => {
    expect(isModuleComing('module_policies')).toBe(false);
    expect(isModuleComing('module_leads')).toBe(false);
    expect(isModuleComing('module_notifications')).toBe(false);
  });

  it('names what every page that changes records does, so the gate can show a role that may not a notice', () => {
    const actionAt = (path: string) =>
      (matchRoutes(appRoutes, path) ?? [])
        .map((match) => match.route.handle as RouteHandle | undefined)
        .findLast((handle) => handle?.action)?.action;
    for (const list of ['/customers', '/policies', '/claims', '/leads']) {
      expect(actionAt(`${list}/create`), list).toBe('work');
      expect(actionAt(`${list}/1/edit`), list).toBe('work');
      expect(actionAt(list), list).toBeUndefined();
      expect(actionAt(`${list}/1`), list).toBeUndefined();
    }
    expect(actionAt('/policies/1/renew')).toBe('work');
    expect(actionAt('/policy-import')).toBe('work');
    expect(actionAt('/support/new')).toBe('work');
    expect(actionAt('/companies/create')).toBe('insurers');
    expect(actionAt('/policy-types/create')).toBe('agency_settings');
    // An insurer's page and a type's are where every member reads them: read-only forms.
    expect(actionAt('/companies/1/edit')).toBeUndefined();
    expect(actionAt('/policy-types/1/edit')).toBeUndefined();
  });
});
