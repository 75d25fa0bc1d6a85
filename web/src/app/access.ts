import type { SubscriptionState } from '@coverdesk/contract';
import { useSession } from '../lib/session-context.js';
import { useSubscriptionStatus } from '../lib/subscription.js';
import { canOpenModule, type ModuleAccess } from './module-access.js';

export interface Access {
  isAdmin: boolean;
  subscription: SubscriptionState | undefined;
  isLoading: boolean;
  isError: boolean;
  canOpen: ModuleAccess;
}

export function useAccess(): Access {
  const { state } = useSession();
  const isAdmin = state.user?.is_admin ?? false;
  const status = useSubscriptionStatus(Boolean(state.user) && !isAdmin);
  const subscription = status.data;
  return {
    isAdmin,
    subscription,
    isLoading: !isAdmin && status.isPending,
    isError: !isAdmin && status.isError,
    canOpen: (module) => canOpenModule(isAdmin, subscription, module),
  };
}
