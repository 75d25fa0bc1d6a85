import type { Notification } from '@coverdesk/contract';
import { notifications as toasts } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { findRelatedPolicy, useMarkRead } from './api.js';
import { pathByWording } from './wording.js';

/**
 * Opening a notification: it is marked read, and the screen its wording names opens; a policy
 * notification opens its policy when one is found by number or customer name.
 */
export function useOpenNotification(afterOpen?: () => void) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  return async (notification: Notification) => {
    if (!notification.is_read) {
      markRead.mutate(notification.id, {
        onError: () => toasts.show({ color: 'red', message: 'Failed to mark notification as read' }),
      });
    }
    afterOpen?.();
    const path = pathByWording(notification);
    if (path !== '/policies') {
      navigate(path);
      return;
    }
    const policyId = await findRelatedPolicy(notification).catch(() => undefined);
    navigate(policyId ? `/policies/${policyId}` : path);
  };
}
