// The faults of the run, in order: what each breaks, how long it stays broken, and how it is mended.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrivatePostgres, PrivateRedis } from '../support/private-services.js';
import { call } from './client.js';
import type { NormalCheck, Probe } from './health.js';
import type { ServiceInstance } from './instances.js';
import type { FaultUpstream } from './upstream.js';

export interface Fault {
  name: string;
  /** Breaks something; resolves once it is broken, optionally with a note for the report. */
  inject(): Promise<string | void>;
  holdMs: number;
  /** Mends it; recovery is measured from when this resolves. */
  heal(): Promise<void>;
  check: NormalCheck;
}

export interface FaultTargets {
  a: ServiceInstance;
  b: ServiceInstance;
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  upstream: FaultUpstream;
  probe: Probe;
  /** A subscription nothing writes to during the faults: its link, once rendered, must outlive an outage. */
  renderedToken: string;
  shutdownTimeoutMs: number;
  outageMs: number;
  upstreamMs: number;
  /** Told when a fault's own check of the contract fails (a slow shutdown, a rendered link not served). */
  onBroken: (note: string) => void;
}

/** Signal delivery and process teardown as seen from here, on a busy machine: not the service's time. */
const EXIT_MARGIN_MS = 300;

const healthy: NormalCheck = { redis: true, upstream: false };

export function faultsOf(t: FaultTargets): Fault[] {
  return [
    {
      name: 'SIGKILL instance A, start it again',
      inject: async () => void (await t.a.signal('SIGKILL')),
      holdMs: 2_000,
      heal: async () => t.a.spawn(),
      check: healthy,
    },
    {
      name: 'PostgreSQL restart (pg_ctl restart -m fast)',
      inject: () => t.postgres.restart(),
      holdMs: 0,
      heal: async () => undefined,
      check: healthy,
    },
    {
      name: `PostgreSQL stopped for ${t.outageMs / 1000} s`,
      inject: async () => {
        const link = `/sub/${t.renderedToken}?format=plain`;
        const before = await Promise.all([t.a, t.b].map((i) => call(i.origin, link)));
        await t.postgres.stop();
        const during = await Promise.all([t.a, t.b].map((i) => call(i.origin, link)));
        const served = during.every((answer, i) => answer.ok && answer.body === before[i]?.body);
        const note = `a link rendered before the stop answered ${during.map((d) => d.code).join(' and ')} during it`;
        if (!served) t.onBroken(note);
        return note;
      },
      holdMs: t.outageMs,
      heal: () => t.postgres.start(),
      check: healthy,
    },
    {
      name: `Redis stopped for ${t.outageMs / 1000} s`,
      inject: () => t.redis.stop(),
      holdMs: t.outageMs,
      heal: () => t.redis.start(),
      check: healthy,
    },
    {
      name: `upstream hangs for ${t.upstreamMs / 1000} s`,
      inject: async () => void (t.upstream.mode = 'hang'),
      holdMs: t.upstreamMs,
      heal: async () => void (t.upstream.mode = 'normal'),
      check: { redis: true, upstream: true },
    },
    {
      name: `upstream floods for ${t.upstreamMs / 1000} s`,
      inject: async () => void (t.upstream.mode = 'flood'),
      holdMs: t.upstreamMs,
      heal: async () => void (t.upstream.mode = 'normal'),
      check: { redis: true, upstream: true },
    },
    {
      name: 'SIGTERM instance B (upstream hanging), start it again',
      inject: async () => {
        // An in-flight request that waits on a hanging upstream: shutdown must not wait for it past its deadline.
        t.upstream.mode = 'hang';
        const inFlight = call(t.b.origin, `/api/v1/subs/${t.probe.token}/refresh`, {
          method: 'POST',
          token: t.probe.apiToken,
        });
        await sleep(300);
        const exit = await t.b.signal('SIGTERM');
        const answer = await inFlight;
        t.upstream.mode = 'normal';
        const note = `exit code ${exit.code} ${exit.ms} ms after SIGTERM (SHUTDOWN_TIMEOUT_MS ${t.shutdownTimeoutMs}); in-flight refresh answered ${answer.code}`;
        if (exit.ms > t.shutdownTimeoutMs + EXIT_MARGIN_MS) t.onBroken(note);
        return note;
      },
      holdMs: 2_000,
      heal: async () => t.b.spawn(),
      check: healthy,
    },
  ];
}
