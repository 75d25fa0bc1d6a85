import type { AdminUser } from '@coverdesk/contract';
import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconKey, IconLock, IconLockOpen, IconLogout, IconShieldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useSession } from '../../../lib/session-context.js';
import { type UserAction, useUserAction } from '../api.js';
import { ReasonDialog } from './reason-dialog.js';

/** What each action says in the menu, in its dialog and when it is done. */
const ACTIONS: Record<
  UserAction,
  {
    label: string;
    title: (user: AdminUser) => string;
    description: string;
    confirm: string;
    destructive: boolean;
    done: (user: AdminUser) => string;
  }
> = {
  disable: {
    label: 'Disable account',
    title: (user) => `Disable ${user.email}?`,
    description:
      'They are signed out at once and cannot sign in again until the account is enabled. Their calendar feed address stops working for good.',
    confirm: 'Disable account',
    destructive: true,
    done: (user) => `${user.email} is disabled and signed out.`,
  },
  enable: {
    label: 'Enable account',
    title: (user) => `Enable ${user.email}?`,
    description: 'They can sign in again with their password.',
    confirm: 'Enable account',
    destructive: false,
    done: (user) => `${user.email} can sign in again.`,
  },
  'sign-out': {
    label: 'Sign out everywhere',
    title: (user) => `Sign ${user.email} out everywhere?`,
    description: 'Every session on every device ends at once; they can sign in again with their password.',
    confirm: 'Sign out everywhere',
    destructive: true,
    done: (user) => `${user.email} is signed out everywhere.`,
  },
  'password-reset': {
    label: 'Send password reset',
    title: (user) => `Send ${user.email} a password reset link?`,
    description: 'They get an email with a link to choose a new password; it works once, for an hour.',
    confirm: 'Send link',
    destructive: false,
    done: (user) => `A password reset link is on its way to ${user.email}.`,
  },
  'mfa/reset': {
    label: 'Reset two-step sign-in',
    title: (user) => `Reset two-step sign-in for ${user.email}?`,
    description:
      'For someone who lost their phone: their password alone signs them in, and they can turn two-step sign-in on again from their settings. Their recovery codes stop working.',
    confirm: 'Reset two-step sign-in',
    destructive: true,
    done: (user) => `Two-step sign-in is reset for ${user.email}.`,
  },
};

/** The actions an admin may take on a user's account, each asked for with a reason. */
export function UserActions({ user }: { user: AdminUser }) {
  const { state } = useSession();
  const [chosen, setChosen] = useState<UserAction | null>(null);
  const self = state.user?.id === user.id;
  const available: UserAction[] = [
    ...(self ? [] : [user.disabled_at ? ('enable' as const) : ('disable' as const), 'sign-out' as const]),
    ...(user.is_demo_user ? [] : ['password-reset' as const]),
    ...(user.mfa_enabled && !self ? ['mfa/reset' as const] : []),
  ];
  if (available.length === 0) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size={44} aria-label={`Actions for ${user.email}`}>
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {available.map((action) => (
            <Menu.Item
              key={action}
              leftSection={<ActionIconFor action={action} />}
              color={ACTIONS[action].destructive ? 'red.9' : undefined}
              onClick={() => setChosen(action)}
            >
              {ACTIONS[action].label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {available.map((action) => (
        <UserActionDialog
          key={action}
          action={action}
          user={user}
          opened={chosen === action}
          onClose={() => setChosen(null)}
        />
      ))}
    </>
  );
}

function ActionIconFor({ action }: { action: UserAction }) {
  const Icon = {
    disable: IconLock,
    enable: IconLockOpen,
    'sign-out': IconLogout,
    'password-reset': IconKey,
    'mfa/reset': IconShieldOff,
  }[action];
  return <Icon size={16} aria-hidden />;
}

function UserActionDialog(props: { action: UserAction; user: AdminUser; opened: boolean; onClose(): void }) {
  const mutation = useUserAction(props.action);
  const text = ACTIONS[props.action];
  const close = () => {
    mutation.reset();
    props.onClose();
  };
  return (
    <ReasonDialog
      opened={props.opened}
      title={text.title(props.user)}
      description={text.description}
      confirmLabel={text.confirm}
      destructive={text.destructive}
      busy={mutation.isPending}
      error={mutation.error}
      onClose={close}
      onConfirm={(reason) =>
        mutation.mutate(
          { userId: props.user.id, reason },
          {
            onSuccess: () => {
              notifications.show({ color: 'green', message: text.done(props.user) });
              close();
            },
          },
        )
      }
    />
  );
}
