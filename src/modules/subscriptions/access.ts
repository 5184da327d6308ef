// Who may read or change a subscription: its owner's scope, and never the user while an approved provider manages it.
import type { Executor } from '../../db/executor.js';
import { errors } from '../../http/errors.js';
import type { Scope } from './scope.js';
import { findSubscription, type SubscriptionWithProvider } from './subscriptions.store.js';
import { isTokenShaped } from '../../shared/tokens.js';
import { findConnection } from '../connections/connections.store.js';

export type AccessMode = 'read' | 'write';

/** Loads a subscription the scope may read or change, or throws 404 subscription_not_found / 403. */
export async function loadForScope(
  db: Executor,
  scope: Scope,
  token: string,
  mode: AccessMode,
): Promise<SubscriptionWithProvider> {
  const subscription = isTokenShaped(token) ? await findSubscription(db, token) : undefined;
  if (!subscription) throw errors.subscriptionNotFound();
  if (subscription.user_id !== scope.userId) throw errors.forbidden('This subscription belongs to another account.');
  if (scope.provider) {
    if (subscription.provider_hash !== scope.provider.hash) {
      throw errors.forbidden('This subscription is not managed by your provider account.');
    }
  } else if (mode === 'write' && subscription.provider_hash !== null) {
    const connection = await findConnection(db, subscription.user_id, subscription.provider_hash);
    if (connection?.status === 'approved') throw errors.managedByProvider(subscription.provider_name);
  }
  return subscription;
}
