import { POPUP_ITEMS } from '@coverdesk/contract';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session-context.js';
import { useLatestNotifications } from '../api.js';
import { useOpenNotification } from '../use-open-notification.js';
import { useNotificationAccess } from '../use-polling.js';
import { newNotifications } from '../wording.js';
import { NotificationItem } from './notification-item.js';

/** The popup waits this long after a fresh sign-in (the spec's 1 s). */
const POPUP_DELAY_MS = 1000;
/** The sign-in the popup last looked at; the spec shows it only when none is stored. */
const LAST_LOGIN_KEY = 'coverdesk.notifications.last-login';

/**
 * After a fresh sign-in, the unread notifications (up to five) in a dialog: "You have N new
 * notifications", Got it and View All. Once per sign-in, and only with something unread.
 */
export function LoginPopup() {
  const { state } = useSession();
  const navigate = useNavigate();
  const allowed = useNotificationAccess();
  const signedInAt = state.freshLoginAt;
  const fresh = signedInAt !== null && localStorage.getItem(LAST_LOGIN_KEY) !== String(signedInAt);
  const [due, setDue] = useState(false);
  const [opened, setOpened] = useState(false);
  const unread = useLatestNotifications(
    { page_size: POPUP_ITEMS, is_read: 'false' },
    fresh && due && allowed,
  );
  const open = useOpenNotification(() => setOpened(false));

  useEffect(() => {
    if (!fresh) return;
    const timer = setTimeout(() => setDue(true), POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fresh]);

  useEffect(() => {
    if (!fresh || !unread.data || signedInAt === null) return;
    localStorage.setItem(LAST_LOGIN_KEY, String(signedInAt));
    if (unread.data.count > 0) setOpened(true);
  }, [fresh, unread.data, signedInAt]);

  if (!unread.data || unread.data.count === 0) return null;
  const close = () => setOpened(false);
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={newNotifications(unread.data.count)}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700 } }}
    >
      <Stack gap="xs">
        <Stack gap={2}>
          {unread.data.results.map((notification) => (
            <NotificationItem
              key={notification.id}
              notification={notification}
              onOpen={(n) => void open(n)}
              lines={2}
            />
          ))}
        </Stack>
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={close}>
            Got it
          </Button>
          <Button
            onClick={() => {
              close();
              navigate('/notifications');
            }}
          >
            View All
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
