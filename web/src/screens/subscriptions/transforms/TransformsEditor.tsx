// A subscription's transforms (not built yet: the transforms editor with its live preview goes here).
import type { Subscription } from '../queries';

export function TransformsEditor(_props: { subscription: Subscription }) {
  return null;
}
