import { Avatar, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { initials } from '../../lib/initials.js';
import { useSession } from '../../lib/session-context.js';
import { useAccess } from '../access.js';
import { menuLabel, userMenu } from '../navigation.js';

/** The user's menu: the desktop dropdown, or the mobile profile menu behind the avatar. */
export function UserMenu({ device }: { device: 'desktop' | 'mobile' }) {
  const { session, state } = useSession();
  const access = useAccess();
  const navigate = useNavigate();
  const user = state.user;
  if (!user) return null;
  const signOut = async () => {
    await session.logout();
    navigate('/login');
  };
  return (
    <Menu position="bottom-end" width={220} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu" mih={44} px={4}>
          <Group gap="xs" wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={device === 'mobile' ? 36 : 34}>
              {initials(user)}
            </Avatar>
            {device === 'desktop' && (
              <>
                <div>
                  <Text fz="sm" fw={600} lh={1.2}>
                    {user.first_name} {user.last_name}
                  </Text>
                  <Text fz="xs" c="dimmed" lh={1.2}>
                    {user.company_name}
                  </Text>
                </div>
                <IconChevronDown size={14} aria-hidden />
              </>
            )}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        {userMenu(access.canOpen, device).map((screen) => (
          <Menu.Item
            key={screen.path}
            component={Link}
            to={screen.path}
            rightSection={
              screen.coming && (
                <Badge size="xs" color="gray" radius="sm">
                  Soon
                </Badge>
              )
            }
          >
            {menuLabel(screen)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          {device === 'mobile' ? 'Sign Out' : 'Sign out'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
