// The one path of a public-link answer, which the link lane and the Fastify route both call: it admits (bans, budgets), answers (format, cache, 304, compression) and accounts (counting, metrics, access line, request history).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { logAnswered, logTime } from '../../http/request-log.js';
import type { RequestKind } from '../../http/route-kind.js';
import type { Format } from '../../formats/formats.js';
import type { LinkChoice } from '../formats/format-rules.js';
import type { FormatSettings } from '../formats/format-settings.js';
import type { RouteObserver } from '../metrics/request-metrics.js';
import type { RequestHistory } from '../history/request-history.js';
import type { LimitVerdict } from '../abuse/rate-limiter.js';
import type { PublicAdmission, PublicGate } from '../abuse/public-gate.js';
import type { ResolvedSubscription } from './render-cache.js';
import type { BrandingSettings } from '../branding/branding.js';
import { linkPageView } from './link-page.js';
import { answerLink, chooseFor, matchesEtag, replyIn, type LinkAnswer } from './link-answer.js';
import { chooseCoding } from './compression.js';
import { endOfTurn, type EndOfTurn } from '../../shared/end-of-turn.js';

export interface LinkPipelineOptions {
  formats: FormatSettings;
  /** The branding the page shows, read on every page answer (a change is a new object: new pages). */
  branding: BrandingSettings;
  publicBaseUrl: string;
  /** Bans and the public budget, charged once whichever path answers. */
  gate: PublicGate;
  stopping: () => boolean;
  count: (kind: RequestKind) => void;
  history: RequestHistory;
  /** The request metrics of a route, by method and pattern. */
  routeObserver: (method: string, url: string) => RouteObserver | undefined;
  log: FastifyBaseLogger;
}

/** A link request, whoever received it. */
export interface LinkRequest {
  raw: IncomingMessage;
  token: string;
  pathFormat: string | undefined;
  queryFormat: string | undefined;
  /** The `lang` query parameter (the Fastify route's only; the lane takes no other query than `format`). */
  lang?: string | undefined;
  /** The client's address, as TRUST_PROXY resolves it: the one the budget was charged to, and the one logged. */
  ip: string;
  id: string;
  /** `performance.now()` when it arrived. */
  started: number;
  /** The route pattern its metrics are observed under (`/sub/:token`...). */
  route: string;
  /** Its redacted URL as a JSON string, for the access line. */
  urlJson: string;
}

/** A format the link serves, or its page: what is left of a choice once a `block` was refused. */
export type ServedChoice = LinkChoice & { result: Format | 'page' };

/** What one request is answered with; `headers` is a flat list of names and values. */
export interface LinkResponse {
  status: 200 | 304;
  headers: string[];
  body: Buffer | undefined;
  choice: ServedChoice;
  servers: number;
}

/** An answer waiting to be written and accounted for. */
interface Queued {
  request: LinkRequest;
  response: ServerResponse;
  answer: LinkResponse;
  /** Told when writing threw (the caller then answers, if nothing was written, or gives the response up). */
  failed: (error: unknown) => void;
}

export class LinkPipeline {
  /** Route observers by method, then pattern. */
  private readonly observers = new Map<string, Map<string, RouteObserver | undefined>>();
  /**
   * Answers are written at the end of the turn, one after another, and then accounted for. On two cores the work
   * between one answer and the next costs more than the work itself: wrk's thread (or any client's) sleeps meanwhile,
   * and every answer then pays for waking it (docs/benchmarks.md). Every Fastify request settles the queue first
   * (`settle`), so a reader of counts, history, metrics or the log sees every answer made before it.
   */
  private readonly queue: EndOfTurn<Queued>;

  constructor(private readonly options: LinkPipelineOptions) {
    this.queue = endOfTurn((items) => this.writeAll(items));
  }

  /** Writes and accounts for every answer queued so far, now. */
  settle(): void {
    this.queue.settle();
  }

  /** Admits a request answered ahead of Fastify; Fastify's own requests are admitted by the abuse hooks (same gate). */
  admission(ip: string): PublicAdmission {
    return this.options.gate.admission(ip);
  }

  /** Spends the public budget once for `raw` (the abuse hooks then use this verdict instead of charging again). */
  charge(raw: IncomingMessage, ip: string): Promise<LimitVerdict | null> {
    return this.options.gate.charge(raw, ip);
  }

  /** The format choice; throws `unknown_format`, and leaves a `block` to the caller to refuse. */
  choose(request: Pick<LinkRequest, 'raw' | 'pathFormat' | 'queryFormat'>): LinkChoice {
    const { raw, pathFormat, queryFormat } = request;
    return chooseFor(this.options.formats, { pathFormat, queryFormat, headers: raw.headers });
  }

  /**
   * The answer of a resolved link in the coding the client accepts best, with `extra` headers first (the request id,
   * then the budget's, as Fastify's hooks set them); undefined while that coding's form is still being made (`ready`).
   */
  respond(
    request: LinkRequest,
    resolved: ResolvedSubscription,
    choice: ServedChoice,
    extra: readonly string[],
  ): LinkResponse | undefined {
    const { raw } = request;
    const answer = this.answerOf(request, resolved, choice);
    const form = replyIn(answer, chooseCoding(raw.headers['accept-encoding']));
    if (!form) return undefined;
    const ifNoneMatch = raw.headers['if-none-match'];
    const held = matchesEtag(ifNoneMatch, form.etag);
    const headers = [...extra, ...(held ? form.notModified : form.ok)];
    // A shutdown that began meanwhile: answer, then close, as every other answer does.
    if (this.options.stopping()) headers.push('connection', 'close');
    const body = held || raw.method === 'HEAD' ? undefined : form.body;
    return { status: held ? 304 : 200, headers, body, choice, servers: answer.served };
  }

  /** Makes the form `respond` waited for (a request that cannot wait goes to one that can: Fastify's route). */
  async ready(request: LinkRequest, resolved: ResolvedSubscription, choice: ServedChoice): Promise<void> {
    const coding = chooseCoding(request.raw.headers['accept-encoding']);
    const forms = this.answerOf(request, resolved, choice).forms;
    if (coding !== 'identity' && forms) await forms.make(coding);
  }

  /** Queues the answer: it is written, then counted, observed under its route, logged and recorded, at the end of the turn. */
  deliver(
    request: LinkRequest,
    response: ServerResponse,
    answer: LinkResponse,
    failed: (error: unknown) => void,
  ): void {
    this.queue.add({ request, response, answer, failed });
  }

  private writeAll(items: Queued[]): void {
    const written: Array<{ item: Queued; milliseconds: number }> = [];
    for (const item of items) {
      try {
        item.response.writeHead(item.answer.status, item.answer.headers);
        item.response.end(item.answer.body);
        written.push({ item, milliseconds: performance.now() - item.request.started });
      } catch (error) {
        this.failedToWrite(item, error);
      }
    }
    if (written.length === 0) return;
    // The answers went out together: one reading of the history's clock and one of the log's serve them all.
    const at = this.options.history.now();
    const time = logTime(this.options.log);
    for (const { item, milliseconds } of written) {
      try {
        this.account(item.request, item.answer, milliseconds, at, time);
      } catch (error) {
        this.options.log.error({ err: error }, 'accounting for a link answer failed');
      }
    }
  }

  /** The caller's fallback runs in the batch: whatever it throws must not cost the answers after it. */
  private failedToWrite(item: Queued, error: unknown): void {
    try {
      item.failed(error);
    } catch (fallbackError) {
      this.options.log.error({ err: fallbackError, cause: error }, 'answering after a failed link write failed too');
      if (!item.response.destroyed) item.response.destroy();
    }
  }

  private account(request: LinkRequest, answer: LinkResponse, milliseconds: number, at: number, time: string): void {
    const { raw, token } = request;
    const { count, history, log } = this.options;
    count('public');
    history.record(
      {
        token,
        format: answer.choice.variant ?? answer.choice.result,
        rule: answer.choice.rule,
        status: answer.status,
        userAgent: raw.headers['user-agent'],
        ip: request.ip,
        servers: answer.servers,
      },
      at,
    );
    this.observerOf(raw.method!, request.route)?.(raw.method!, answer.status, milliseconds / 1000);
    logAnswered(
      log,
      request.id,
      { method: raw.method!, urlJson: request.urlJson, ip: request.ip },
      answer.status,
      milliseconds,
      time,
    );
  }

  private answerOf(request: LinkRequest, resolved: ResolvedSubscription, choice: ServedChoice): LinkAnswer {
    const { formats, publicBaseUrl, branding } = this.options;
    if (choice.result !== 'page') return answerLink(resolved, choice, formats);
    // The page is drawn for the visitor: ?lang=, the language cookie, Accept-Language; User-Agent for the platform.
    const view = linkPageView({ headers: request.raw.headers, lang: request.lang }, branding.current);
    return answerLink(resolved, choice, formats, { url: `${publicBaseUrl}/sub/${request.token}`, view });
  }

  private observerOf(method: string, pattern: string): RouteObserver | undefined {
    let byPattern = this.observers.get(method);
    if (!byPattern) this.observers.set(method, (byPattern = new Map()));
    if (!byPattern.has(pattern)) byPattern.set(pattern, this.options.routeObserver(method, pattern));
    return byPattern.get(pattern);
  }
}
