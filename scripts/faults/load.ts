// The mixed load of the fault run: each worker is one user writing and reading its own subscriptions through either
// instance, recording every acknowledged write in the ledger and settling every write whose answer it did not get.
import { call, json, type Answer } from './client.js';
import {
  applyWrite,
  compare,
  matches,
  type Actual,
  type Expected,
  type Ledger,
  type SourceState,
  type Write,
} from './ledger.js';
import type { ServiceInstance } from './instances.js';
import type { FaultUpstream } from './upstream.js';
import { actualOf, baseData, toInput, type SubscriptionView } from './views.js';

export interface Sample {
  phase: string;
  op: string;
  code: string;
  ok: boolean;
  ms: number;
  /** When the request was sent (ms since the epoch). */
  at: number;
}

/** An unanswered write that a later read showed neither applied nor not applied: acknowledged writes went missing. */
export interface Violation {
  token: string;
  write: Write['kind'];
  lost: number[];
  unexpected: string[];
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

/** The operation name of the reads that settle an unanswered write. */
export const READ_BACK = 'read-back';
const MAX_LIVE = 4;
const MAX_SOURCES = 24;
const SETTLE_LIMIT_MS = 60_000;

export class LoadWorker {
  private counter = 0;
  /** Source ids by subscription and data, from the last answer that listed them. */
  private readonly ids = new Map<string, Map<string, string>>();
  /** Subscriptions whose state went astray (see Violation): still verified at the end, no longer written to. */
  private readonly abandoned = new Set<string>();
  private readonly tokens: string[] = [];
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
  }

  private live(): string[] {
    return this.tokens.filter((t) => this.run.ledger.state(t)?.exists && !this.abandoned.has(t));
  }

  private async step(): Promise<void> {
    const live = this.live();
    const token = pick(live);
    const state = token ? (this.run.ledger.state(token) as Expected) : null;
    if (!token || !state || (live.length < MAX_LIVE && Math.random() < 0.08)) return this.create();
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
      await this.settle(null, write, phase, answer);
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
      await this.settle(token, write, phase, answer);
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

  /**
   * A write without an answer may or may not have happened: read the subscription back (through whichever instance
   * answers) and keep the write when the state shows it, drop it when the state is as before. Anything else means an
   * earlier acknowledged write went missing.
   */
  private async settle(token: string | null, write: Write, phase: string, answer: Answer): Promise<void> {
    if (answer.status === 0 && answer.code !== 'ECONNRESET') await sleep(2_000); // the server may still be at it
    const giveUpAt = Date.now() + SETTLE_LIMIT_MS;
    while (Date.now() < giveUpAt) {
      const read = await this.readBack(token, write);
      if (read === undefined) {
        await sleep(200);
        continue;
      }
      const { token: found, actual, view } = read;
      if (view) this.remember(view);
      const before = token ? this.run.ledger.state(token) : null;
      const key = found ?? token;
      if (key && matches(applyWrite(before, write, 0), actual)) {
        if (!token) this.adopt(key);
        this.run.ledger.record(key, write, false, phase);
      } else if (!matches(before, actual)) {
        const { lost, unexpected } = compare(before, actual);
        this.run.violations.push({ token: key ?? '(create)', write: write.kind, lost, unexpected });
        if (key) this.abandoned.add(key);
      }
      return;
    }
    this.run.unsettled += 1;
    if (token) this.abandoned.add(token);
  }

  /** The subscription's state now (a create is found by its unique name), or undefined when no instance answered. */
  private async readBack(
    token: string | null,
    write: Write,
  ): Promise<{ token: string | null; actual: Actual; view: SubscriptionView | null } | undefined> {
    let target = token;
    if (!target && write.kind === 'create') {
      const listed = await this.send(READ_BACK, '/api/v1/subs');
      if (!listed.ok) return undefined;
      target = json<Array<{ token: string; name: string }>>(listed).find((s) => s.name === write.name)?.token ?? null;
      if (!target) return { token: null, actual: null, view: null };
    }
    const answer = await this.send(READ_BACK, `/api/v1/subs/${target}`);
    if (answer.status === 404) return { token: target, actual: null, view: null };
    if (!answer.ok) return undefined;
    const view = json<SubscriptionView>(answer);
    return { token: target, actual: actualOf(view), view };
  }
}

function pick<T>(items: readonly T[]): T | undefined {
  return items[Math.floor(Math.random() * items.length)];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
