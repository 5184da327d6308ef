// The mixed load of the fault run: each worker is one user writing and reading its own subscriptions through either
// instance, recording every acknowledged write in the ledger and settling every write whose answer it did not get.
import { setTimeout as sleep } from 'node:timers/promises';
import { call, json, type Answer } from './client.js';
import type { Expected, Ledger, SourceState, Write } from './ledger.js';
import type { ServiceInstance } from './instances.js';
import { READ_BACK, settle, type SettleHost, type Violation } from './settle.js';
import type { FaultUpstream } from './upstream.js';
import { baseData, toInput, type SubscriptionView } from './views.js';

export interface Sample {
  phase: string;
  op: string;
  code: string;
  ok: boolean;
  ms: number;
  /** When the request was sent (ms since the epoch). */
  at: number;
}

export interface LoadContext {
  phase: string;
  instances: ServiceInstance[];
  ledger: Ledger;
  upstream: FaultUpstream;
  samples: Sample[];
  violations: Violation[];
  /** The API token of each subscription's owner, for reading it back. */
  owners: Map<string, string>;
  /** Unanswered writes whose outcome could not be read back within the settle time. */
  unsettled: number;
  nextFeed: number;
}

const MAX_LIVE = 4;
/** Unanswered writes a worker settles at once before it only reads. */
const MAX_SETTLING = 2;
const MAX_SOURCES = 24;

export class LoadWorker {
  private counter = 0;
  /** Source ids by subscription and data, from the last answer that listed them. */
  private readonly ids = new Map<string, Map<string, string>>();
  /** Subscriptions whose state went astray (see Violation): still verified at the end, no longer written to. */
  private readonly abandoned = new Set<string>();
  private readonly tokens: string[] = [];
  /** Unanswered writes being settled in the background; their subscriptions are left alone until then. */
  private readonly settling = new Set<Promise<void>>();
  private readonly unsettledTokens = new Set<string>();
  private unsettledCreates = 0;
  private stopped = false;
  private loop: Promise<void> | null = null;
  scriptErrors: string[] = [];

  constructor(
    private readonly run: LoadContext,
    private readonly index: number,
    private readonly apiToken: string,
    private readonly thinkMs: number,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          await this.step();
        } catch (error) {
          this.scriptErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
        }
        await sleep(this.thinkMs * (0.5 + Math.random()));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    await Promise.all(this.settling);
  }

  private live(): string[] {
    return this.tokens.filter(
      (t) => this.run.ledger.state(t)?.exists && !this.abandoned.has(t) && !this.unsettledTokens.has(t),
    );
  }

  private async step(): Promise<void> {
    if (this.settling.size >= MAX_SETTLING) return this.readOnly();
    const live = this.live();
    const token = pick(live);
    const state = token ? (this.run.ledger.state(token) as Expected) : null;
    if (!token || !state || (live.length < MAX_LIVE && Math.random() < 0.08))
      return this.unsettledCreates > 0 ? this.readOnly() : this.create();
    const configs = state.sources.filter((s) => !s.external);
    const roll = Math.random() * 100;
    if (roll < 12) return this.read('list', '/api/v1/subs');
    if (roll < 22) return this.read('get', `/api/v1/subs/${token}`);
    if (roll < 45) return this.read('link', `/sub/${token}?format=plain`, false);
    if (roll < 48 && state.sources.some((s) => s.external)) return this.refresh(token);
    if (roll < 63 && state.sources.length < MAX_SOURCES)
      return this.write(token, 'add', {
        kind: 'add',
        sources: this.newSources(state, 1 + Math.floor(Math.random() * 2)),
      });
    if (roll < 68 && state.sources.length > 1) {
      const kept = state.sources.slice(1).map(({ data, comment, external }) => ({ data, comment, external }));
      return this.write(token, 'replace', { kind: 'replace', sources: [...kept, ...this.newSources(state, 1)] });
    }
    if (roll < 73 && state.sources.length > 2)
      return this.write(token, 'remove', { kind: 'remove', data: [state.sources[0]?.data as string] });
    if (roll < 90 && configs.length > 0) {
      const comment = Math.random() < 0.1 ? null : `k${this.index}-${++this.counter}`;
      return this.write(token, 'comment', { kind: 'comment', data: (pick(configs) as SourceState).data, comment });
    }
    if (roll < 95) return this.write(token, 'rename', { kind: 'rename', name: this.newName() });
    if (live.length > 1) return this.write(token, 'delete', { kind: 'delete' });
  }

  /** While writes wait to be settled: reads only, mostly of public links (rendered links outlive an outage). */
  private readOnly(): Promise<void> {
    const token = pick(this.tokens.filter((t) => this.run.ledger.state(t)?.exists));
    const roll = Math.random();
    if (!token || roll < 0.2) return this.read('list', '/api/v1/subs');
    if (roll < 0.4) return this.read('get', `/api/v1/subs/${token}`);
    return this.read('link', `/sub/${token}?format=plain`, false);
  }

  private newName(): string {
    return `w${this.index}-${++this.counter}`;
  }

  /** Fresh configs, and now and then an external feed: a new one (first fetch) or one other subscriptions use. */
  private newSources(state: Expected | null, count: number): SourceState[] {
    const sources: SourceState[] = [];
    for (let i = 0; i < count; i++) {
      if (Math.random() < 0.25) {
        const feed =
          Math.random() < 0.5 || this.run.nextFeed === 0
            ? this.run.nextFeed++
            : Math.floor(Math.random() * this.run.nextFeed);
        const data = this.run.upstream.url(feed);
        if (!state?.sources.some((s) => s.data === data) && !sources.some((s) => s.data === data)) {
          sources.push({ data, comment: null, external: true });
          continue;
        }
      }
      sources.push({
        data: `trojan://pw@w${this.index}-${++this.counter}.example.com:443`,
        comment: null,
        external: false,
      });
    }
    return sources;
  }

  private instance(): ServiceInstance {
    return pick(this.run.instances) as ServiceInstance;
  }

  private async send(op: string, path: string, method = 'GET', body?: unknown, authenticated = true): Promise<Answer> {
    const at = Date.now();
    const answer = await call(this.instance().origin, path, {
      method,
      ...(authenticated ? { token: this.apiToken } : {}),
      ...(body === undefined ? {} : { json: body }),
    });
    this.run.samples.push({ phase: this.run.phase, op, code: answer.code, ok: answer.ok, ms: answer.ms, at });
    return answer;
  }

  private async read(op: string, path: string, authenticated = true): Promise<void> {
    await this.send(op, path, 'GET', undefined, authenticated);
  }

  private async refresh(token: string): Promise<void> {
    await this.send('refresh', `/api/v1/subs/${token}/refresh`, 'POST');
  }

  private async create(): Promise<void> {
    const write: Write = { kind: 'create', name: this.newName(), sources: this.newSources(null, 2) };
    const phase = this.run.phase;
    const answer = await this.send('create', '/api/v1/subs', 'POST', {
      name: write.name,
      sources: write.sources.map(toInput),
    });
    if (answer.ok) {
      const view = json<SubscriptionView>(answer);
      this.adopt(view.token);
      this.run.ledger.record(view.token, write, true, phase);
      this.remember(view);
    } else if (!answer.neverSent) {
      this.settleLater(null, write, phase, answer);
    }
  }

  private async write(token: string, op: string, write: Write): Promise<void> {
    const phase = this.run.phase;
    const path = `/api/v1/subs/${token}`;
    const answer = await (async () => {
      switch (write.kind) {
        case 'add':
          return this.send(op, `${path}/sources`, 'POST', { sources: write.sources.map(toInput) });
        case 'replace':
          return this.send(op, `${path}/sources`, 'PUT', { sources: write.sources.map(toInput) });
        case 'remove':
          return this.send(op, `${path}/sources`, 'DELETE', { source_ids: write.data.map((d) => this.idOf(token, d)) });
        case 'comment':
          return this.send(op, `${path}/config`, 'PATCH', {
            config_id: this.idOf(token, write.data),
            comment: write.comment,
          });
        case 'rename':
          return this.send(op, path, 'PATCH', { name: write.name });
        default:
          return this.send(op, path, 'DELETE');
      }
    })();
    if (answer.ok) {
      this.run.ledger.record(token, write, true, phase);
      if (answer.status === 200) this.remember(json<SubscriptionView>(answer));
    } else if (!answer.neverSent) {
      this.settleLater(token, write, phase, answer);
    }
  }

  private adopt(token: string): void {
    this.tokens.push(token);
    this.run.owners.set(token, this.apiToken);
  }

  private idOf(token: string, data: string): string {
    const id = this.ids.get(token)?.get(data);
    if (!id) throw new Error(`no source id known for ${data} in ${token}`);
    return id;
  }

  private remember(view: SubscriptionView): void {
    this.ids.set(view.token, new Map(view.sources.map((s) => [baseData(s), s.id])));
  }

  private settleLater(token: string | null, write: Write, phase: string, answer: Answer): void {
    if (token) this.unsettledTokens.add(token);
    else this.unsettledCreates += 1;
    const host: SettleHost = {
      ledger: this.run.ledger,
      violations: this.run.violations,
      read: (path) => this.send(READ_BACK, path),
      remember: (view) => this.remember(view),
      adopt: (found) => this.adopt(found),
      abandon: (astray) => this.abandoned.add(astray),
    };
    const job: Promise<void> = settle(host, token, write, phase, answer)
      .then((outcome) => {
        if (outcome === 'unsettled') this.run.unsettled += 1;
      })
      .catch(
        (error: unknown) =>
          void this.scriptErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error)),
      )
      .finally(() => {
        if (token) this.unsettledTokens.delete(token);
        else this.unsettledCreates -= 1;
        this.settling.delete(job);
      });
    this.settling.add(job);
  }
}

function pick<T>(items: readonly T[]): T | undefined {
  return items[Math.floor(Math.random() * items.length)];
}
