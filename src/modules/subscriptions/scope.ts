// Who a subscription request acts for: a user on their own account, or a provider on a user it manages.

export interface Scope {
  userId: number;
  /** null when the user acts on their own account; otherwise the provider acting for the user. */
  provider: { hash: string; name: string } | null;
}

/** Key of the scope column: '' for the user's own subscriptions, else the provider's hash. */
export function scopeKey(scope: Scope): string {
  return scope.provider?.hash ?? '';
}
