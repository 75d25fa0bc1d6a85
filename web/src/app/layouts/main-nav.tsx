import { Divider, NavLink, Stack } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { NavLink as RouterLink } from 'react-router';
import { useInAdminPortal } from '../../lib/hosts.js';
import { useAccess } from '../access.js';
import { mainNavigation, menuLabel } from '../navigation.js';
import type { Screen } from '../screens.js';
import { AdminNav } from './admin-nav.js';

const ENTRY_STYLE = { borderRadius: 'var(--mantine-radius-md)', minHeight: 44 };

/**
 * The main navigation; shared by the desktop sidebar and the mobile slide-out menu. The screens on
 * their way are listed too, under their own heading below the ones that work, so a broker sees what
 * is coming without passing over it every day.
 */
export function MainNav({ onNavigate }: { onNavigate?: () => void }) {
  return useInAdminPortal() ? <AdminNav onNavigate={onNavigate} /> : <AgencyNav onNavigate={onNavigate} />;
}

function AgencyNav({ onNavigate }: { onNavigate?: () => void }) {
  const access = useAccess();
  const { working, coming } = mainNavigation(access.canOpen);
  const entry = (screen: Screen) => (
    <NavLink
      key={screen.path}
      component={RouterLink}
      to={screen.path}
      label={menuLabel(screen)}
      leftSection={<screen.icon size={18} stroke={1.6} />}
      onClick={onNavigate}
      style={ENTRY_STYLE}
    />
  );
  return (
    <Stack gap={2} component="nav" aria-label="Main navigation">
      {working.map(entry)}
      {access.isAdmin && (
        <NavLink
          component={RouterLink}
          to="/admin"
          label="Admin portal"
          leftSection={<IconShieldLock size={18} stroke={1.6} />}
          onClick={onNavigate}
          style={ENTRY_STYLE}
        />
      )}
      {coming.length > 0 && (
        <>
          <Divider label="On its way" labelPosition="left" mt="sm" mb={4} />
          {coming.map(entry)}
        </>
      )}
    </Stack>
  );
}
