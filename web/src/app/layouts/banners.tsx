import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconFlask, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '../../lib/format.js';
import { useSession } from '../../lib/session-context.js';
import { useAccess } from '../access.js';
import { subscriptionNotice } from '../subscription-notice.js';

/** For visitors in the demo agency: what this is, and the way to a real account. */
export function DemoBanner() {
  const { session, state } = useSession();
  const navigate = useNavigate();
  if (!state.user?.is_demo_user) return null;
  const leave = async (to: string) => {
    await session.logout();
    navigate(to);
  };
  return (
    <Alert
      color="violet"
      variant="light"
      radius={0}
      icon={<IconFlask size={18} />}
      py="xs"
      role="region"
      aria-label="Demo mode"
    >
      <Group justify="space-between" gap="xs">
        <Text fz="sm">
          <b>Demo Mode</b> — you are exploring a sample agency. Its data resets daily.
        </Text>
        <Group gap="xs">
          <Button size="xs" onClick={() => void leave('/register')}>
            Start Real Account
          </Button>
          <Button size="xs" variant="default" onClick={() => void leave('/')}>
            Back to Home
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}

const DISMISSED_KEY = 'coverdesk.subscription-banner-dismissed';

/** A trial about to end or a lapsed subscription, for non-admins; dismissible for this visit. */
export function SubscriptionBanner() {
  const access = useAccess();
  const notice = access.isAdmin ? null : subscriptionNotice(access.subscription);
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED_KEY));
  if (!notice || dismissed === notice.text) return null;
  return (
    <Alert
      color={notice.tone === 'danger' ? 'red' : 'yellow'}
      variant="light"
      radius={0}
      py="xs"
      icon={<IconAlertTriangle size={18} />}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => {
        sessionStorage.setItem(DISMISSED_KEY, notice.text);
        setDismissed(notice.text);
      }}
      role="region"
      aria-label="Subscription"
    >
      <Group justify="space-between" gap="xs">
        <Text fz="sm" fw={600}>
          {notice.text}
        </Text>
        <Button
          size="xs"
          component={Link}
          to="/billing"
          color={notice.tone === 'danger' ? 'red' : 'yellow.8'}
          autoContrast
        >
          {notice.action}
        </Button>
      </Group>
    </Alert>
  );
}

/**
 * The agency requires two-step sign-in and this member has it off: by when, and the way to turn it
 * on. Past that day only their own account answers them, and every screen says so.
 */
export function TwoStepBanner() {
  const { state } = useSession();
  const by = state.user?.two_step_required_by;
  if (!by) return null;
  const overdue = Date.parse(by) <= Date.now();
  return (
    <Alert
      color={overdue ? 'red' : 'yellow'}
      variant="light"
      radius={0}
      py="xs"
      icon={<IconShieldLock size={18} />}
      role="region"
      aria-label="Two-step sign-in"
    >
      <Group justify="space-between" gap="xs">
        <Text fz="sm" fw={600}>
          {overdue
            ? 'Your agency requires two-step sign-in: turn it on to go on working.'
            : `Your agency requires two-step sign-in: turn it on by ${formatDate(by)}.`}
        </Text>
        <Button
          size="xs"
          component={Link}
          to="/profile/settings"
          color={overdue ? 'red' : 'yellow.8'}
          // White on this yellow is below 4.5:1; dark text passes.
          autoContrast
        >
          Turn it on
        </Button>
      </Group>
    </Alert>
  );
}
