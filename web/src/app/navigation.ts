import type { ModuleAccess } from './module-access.js';
import { SCREENS, type Screen } from './screens.js';

const screens: readonly Screen[] = SCREENS;

/** The main navigation a user sees: the screens that work today, then those on their way. */
export function mainNavigation(canOpen: ModuleAccess): { working: Screen[]; coming: Screen[] } {
  const listed = screens.filter((screen) => screen.inSidebar && canOpen(screen.module));
  return {
    working: listed.filter((screen) => !screen.coming),
    coming: listed.filter((screen) => screen.coming),
  };
}

/** The user menu (desktop dropdown or mobile profile menu), before "Sign out". */
export function userMenu(canOpen: ModuleAccess, device: 'desktop' | 'mobile'): Screen[] {
  return screens.filter(
    (screen) =>
      (screen.inUserMenu === 'always' || (screen.inUserMenu === 'desktop' && device === 'desktop')) &&
      canOpen(screen.module),
  );
}

/** How a screen is named in the menus. */
export const menuLabel = (screen: Screen) => screen.label ?? screen.title;
