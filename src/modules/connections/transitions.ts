// The provider-connection state machine (docs/api.md, States) as one pure function, so every rule is testable without a database.

import type { ConnectionStatus } from '../../db/column-values.js';

export { CONNECTION_STATUSES, type ConnectionStatus } from '../../db/column-values.js';

/**
 * request: the provider asks for access (POST /providers/{user_id}); authorize: the admin processes a signed invite;
 * approve/reject: the user or the admin decides on a pending request; revoke: the user withdraws access;
 * provider_revoke: the provider gives access up (DELETE /providers/{user_id}).
 */
export type ConnectionEvent = 'request' | 'authorize' | 'approve' | 'reject' | 'revoke' | 'provider_revoke';

export type TransitionError =
  'connection_not_found' | 'connection_exists' | 'connection_not_pending' | 'provider_limit_reached';

export interface TransitionContext {
  /** Approved connections the user holds with other providers. */
  approvedElsewhere: number;
  maxApproved: number;
  /** The provider has created subscriptions for this user at some point. */
  hadSubscriptions: boolean;
}

/** `next: null` means the record is deleted (or, when there was none, stays absent). */
export type TransitionResult = { ok: true; next: ConnectionStatus | null } | { ok: false; error: TransitionError };

const to = (next: ConnectionStatus | null): TransitionResult => ({ ok: true, next });
const fail = (error: TransitionError): TransitionResult => ({ ok: false, error });

export function transition(
  current: ConnectionStatus | null,
  event: ConnectionEvent,
  context: TransitionContext,
): TransitionResult {
  switch (event) {
    case 'request':
      // A revoked record is re-opened: this is how a revoked connection can become approved again.
      return current === null || current === 'revoked' ? to('pending') : fail('connection_exists');
    case 'authorize':
      // The invite only opens a request; an existing record is left as it is.
      return to(current ?? 'pending');
    case 'approve':
      if (current === null) return fail('connection_not_found');
      if (current !== 'pending') return fail('connection_not_pending');
      if (context.approvedElsewhere >= context.maxApproved) return fail('provider_limit_reached');
      return to('approved');
    case 'reject':
      if (current === null) return fail('connection_not_found');
      if (current !== 'pending') return fail('connection_not_pending');
      // The record is kept only when subscriptions from this provider exist, so they stay traceable.
      return to(context.hadSubscriptions ? 'revoked' : null);
    case 'revoke':
    case 'provider_revoke':
      return current === null ? fail('connection_not_found') : to('revoked');
  }
}
