import type { ModuleName, SubscriptionState } from '@coverdesk/contract';

/** What a user may open: admins everything, others what their plan includes. */
export type ModuleAccess = (module: ModuleName | undefined) => boolean;

/** Admins pass every gate; others need an active subscription whose plan includes the module. */
export function canOpenModule(
  isAdmin: boolean,
  subscription: Pick<SubscriptionState, 'is_active' | 'features'> | undefined,
  module: ModuleName | undefined,
): boolean {
  if (isAdmin) return true;
  if (!subscription?.is_active) return false;
  return !module || subscription.features.includes(module);
}
