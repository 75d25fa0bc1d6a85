import { Divider, NavLink, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { NavLink as RouterLink } from 'react-router';
import { isAdminHost } from '../../lib/hosts.js';
import { ADMIN_GROUPS, ADMIN_SCREENS } from '../admin-screens.js';

const ENTRY_STYLE = { borderRadius: 'var(--mantine-radius-md)', minHeight: 44 };

/** The admin portal's menu, by group; on the main app's host it also leads back to the agency's app. */
export function AdminNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Stack gap={2} component="nav" aria-label="Admin navigation">
      {ADMIN_GROUPS.map((group) => (
        <Stack key={group} gap={2}>
          <Divider label={group} labelPosition="left" mt="xs" mb={2} />
          {ADMIN_SCREENS.filter((screen) => screen.group === group).map((screen) => (
            <NavLink
              key={screen.path}
              component={RouterLink}
              to={screen.path}
              end={screen.path === '/admin'}
              label={screen.title}
              leftSection={<screen.icon size={18} stroke={1.6} />}
              onClick={onNavigate}
              style={ENTRY_STYLE}
            />
          ))}
        </Stack>
      ))}
      {!isAdminHost(window.location.hostname) && (
        <>
          <Divider mt="sm" mb={4} />
          <NavLink
            component={RouterLink}
            to="/dashboard"
            label="Back to the app"
            leftSection={<IconArrowLeft size={18} stroke={1.6} />}
            onClick={onNavigate}
            style={ENTRY_STYLE}
          />
        </>
      )}
    </Stack>
  );
}
