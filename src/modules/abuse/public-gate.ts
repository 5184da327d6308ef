// Admits public-link requests answered ahead of Fastify (the link lane): bans refer them to the hooks, and the public budget is charged once per request whichever path answers it.
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { clientGroup } from '../../net/ip.js';
import type { AbuseControls } from './abuse.service.js';
import { safely, type LimitVerdict, type RateLimiter } from './rate-limiter.js';

/** `free`: nothing to refuse or charge; `charge`: the public budget applies; `refer`: banned, for the hooks to refuse. */
export type PublicAdmission = 'free' | 'charge' | 'refer';

export class PublicGate {
  /** Verdicts charged ahead of Fastify, for the hooks to use instead of charging the same request again. */
  private readonly charged = new WeakMap<IncomingMessage, LimitVerdict | null>();

  constructor(
    private readonly controls: AbuseControls,
    private readonly limiter: RateLimiter,
    private readonly log: FastifyBaseLogger,
  ) {}

  admission(ip: string): PublicAdmission {
    if (this.controls.view.isWhitelisted(ip)) return 'free';
    if (this.controls.view.bannedUntil(ip) !== null) return 'refer';
    return this.limiter.enabled('public') ? 'charge' : 'free';
  }

  /** Spends one unit of the public budget for `raw`; null when the counters failed (the request is let through). */
  async charge(raw: IncomingMessage, ip: string): Promise<LimitVerdict | null> {
    const verdict = await safely(this.log, () => this.limiter.hit('public', clientGroupOf(raw.socket, ip)));
    this.charged.set(raw, verdict);
    return verdict;
  }

  /** The verdict charged for `raw` ahead of the hooks (once), or undefined when nothing was charged. */
  takeCharge(raw: IncomingMessage): LimitVerdict | null | undefined {
    if (!this.charged.has(raw)) return undefined;
    const verdict = this.charged.get(raw) ?? null;
    this.charged.delete(raw);
    return verdict;
  }
}

/** Strikes and budgets count the client's group; a keep-alive connection keeps the group of its address. */
const groups = new WeakMap<object, { ip: string; group: string }>();
export function clientGroupOf(socket: object, ip: string): string {
  const kept = groups.get(socket);
  if (kept?.ip === ip) return kept.group;
  const group = clientGroup(ip);
  groups.set(socket, { ip, group });
  return group;
}
