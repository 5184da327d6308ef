// Who is calling: set once by authentication, read by rate limiting and by the routes.
import type { FastifyRequest } from 'fastify';
export type Caller =
  { kind: 'user'; userId: number } | { kind: 'provider'; providerHash: string; providerName: string } | null;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; null until authentication (and on routes that take none). */
    caller: Caller;
  }
}

/** The rate-limit key of an authenticated caller, e.g. `user:42` or `provider:<hash>`. */
export function callerKey(caller: NonNullable<Caller>): string {
  return caller.kind === 'user' ? `user:${caller.userId}` : `provider:${caller.providerHash}`;
}

export type UserCaller = Extract<Caller, { kind: 'user' }>;
export type ProviderCaller = Extract<Caller, { kind: 'provider' }>;

/** The caller of a route whose plugin authenticated a user in onRequest. */
export function userCaller(request: FastifyRequest): UserCaller {
  if (request.caller?.kind !== 'user') throw new Error('route reached without an authenticated user');
  return request.caller;
}

/** The caller of a route whose plugin authenticated a provider in onRequest. */
export function providerCaller(request: FastifyRequest): ProviderCaller {
  if (request.caller?.kind !== 'provider') throw new Error('route reached without an authenticated provider');
  return request.caller;
}
