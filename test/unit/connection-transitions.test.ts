// Every row of the connection state machine (docs/api.md, States), without a database.
import { describe, expect, it } from 'vitest';
import {
  transition,
  type ConnectionEvent,
  type ConnectionStatus,
  type TransitionContext,
  type TransitionResult,
} from '../../src/modules/connections/transitions.js';

const base: TransitionContext = { approvedElsewhere: 0, maxApproved: 5, hadSubscriptions: false };
const to = (next: ConnectionStatus | null): TransitionResult => ({ ok: true, next });
const fail = (error: string): TransitionResult => ({ ok: false, error }) as TransitionResult;

type Row = [ConnectionStatus | null, ConnectionEvent, Partial<TransitionContext>, TransitionResult];

const rows: Row[] = [
  // Provider request: none or revoked -> pending; an active connection -> 409.
  [null, 'request', {}, to('pending')],
  ['revoked', 'request', {}, to('pending')],
  ['revoked', 'request', { hadSubscriptions: true }, to('pending')],
  ['pending', 'request', {}, fail('connection_exists')],
  ['approved', 'request', {}, fail('connection_exists')],
  // Admin authorize with a valid invite: none -> pending; an existing record is unchanged.
  [null, 'authorize', {}, to('pending')],
  ['pending', 'authorize', {}, to('pending')],
  ['approved', 'authorize', {}, to('approved')],
  ['revoked', 'authorize', {}, to('revoked')],
  // Approve: only pending, only below the limit; none -> 404.
  ['pending', 'approve', {}, to('approved')],
  ['pending', 'approve', { approvedElsewhere: 4, maxApproved: 5 }, to('approved')],
  ['pending', 'approve', { approvedElsewhere: 5, maxApproved: 5 }, fail('provider_limit_reached')],
  ['pending', 'approve', { approvedElsewhere: 0, maxApproved: 0 }, fail('provider_limit_reached')],
  ['approved', 'approve', {}, fail('connection_not_pending')],
  ['revoked', 'approve', {}, fail('connection_not_pending')],
  ['approved', 'approve', { approvedElsewhere: 9, maxApproved: 1 }, fail('connection_not_pending')],
  [null, 'approve', {}, fail('connection_not_found')],
  // Reject: pending -> deleted without past subscriptions, revoked with them; non-pending 409; none 404.
  ['pending', 'reject', { hadSubscriptions: false }, to(null)],
  ['pending', 'reject', { hadSubscriptions: true }, to('revoked')],
  ['approved', 'reject', {}, fail('connection_not_pending')],
  ['revoked', 'reject', {}, fail('connection_not_pending')],
  [null, 'reject', {}, fail('connection_not_found')],
  // User revoke: pending/approved -> revoked, revoked stays revoked (idempotent); none 404.
  ['pending', 'revoke', {}, to('revoked')],
  ['approved', 'revoke', {}, to('revoked')],
  ['revoked', 'revoke', {}, to('revoked')],
  [null, 'revoke', {}, fail('connection_not_found')],
  // Provider DELETE: any record -> revoked; none 404.
  ['pending', 'provider_revoke', {}, to('revoked')],
  ['approved', 'provider_revoke', {}, to('revoked')],
  ['revoked', 'provider_revoke', {}, to('revoked')],
  [null, 'provider_revoke', {}, fail('connection_not_found')],
];

describe('connection transitions', () => {
  it.each(rows)('%s --%s %o--> %o', (current, event, context, expected) => {
    expect(transition(current, event, { ...base, ...context })).toEqual(expected);
  });

  it('covers every (status, event) pair', () => {
    const statuses: Array<ConnectionStatus | null> = [null, 'pending', 'approved', 'revoked'];
    const events: ConnectionEvent[] = ['request', 'authorize', 'approve', 'reject', 'revoke', 'provider_revoke'];
    const covered = new Set(rows.map(([status, event]) => `${status}:${event}`));
    for (const status of statuses) for (const event of events) expect(covered).toContain(`${status}:${event}`);
  });

  it('does not count the connection being approved against the limit', () => {
    expect(transition('pending', 'approve', { ...base, approvedElsewhere: 0, maxApproved: 1 })).toEqual(to('approved'));
  });
});
