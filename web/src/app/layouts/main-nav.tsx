import { NavLink, Stack } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { NavLink as RouterLink } from 'react-router';
import { useAccess } from '../access.js';
import { mainNavigation } from '../navigation.js';

/** The main navigation; shared by the desktop sidebar and the mobile slide-out menu. */
export function MainNav({ onNavigate }: { onNavigate?: () => void }) {
  const access = useAccess();
  return (
    <Stack gap={2} component="nav" aria-label="Main navigation">
      {mainNavigation(access.canOpen).map((item) => (
        <NavLink
          key={item.path}
          component={RouterLink}
          to={item.path}
          label={item.label}
          leftSection={<item.icon size={18} stroke={1.6} />}
          onClick={onNavigate}
          style={{ borderRadius: 'var(--mantine-radius-md)', minHeight: 44 }}
        />
      ))}
      {access.isAdmin && (
        <NavLink
          component={RouterLink}
          to="/admin"
          label="Admin portal"
          leftSection={<IconShieldLock size={18} stroke={1.6} />}
          onClick={onNavigate}
          style={{ borderRadius: 'var(--mantine-radius-md)', minHeight: 44 }}
        />
      )}
    </Stack>
  );
}
