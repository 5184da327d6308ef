// A subscription's editable fields and link settings (not built yet).
import type { Subscription } from '../queries';

export function SubscriptionSettings(_props: { subscription: Subscription }) {
  return null;
}
