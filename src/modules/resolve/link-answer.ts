// Builds what the public link answers for one request (format choice, body, headers, the coding's form), for the link itself and for the preview.
import { CONTENT_TYPES, type Format, type FormatVariant } from '../../formats/formats.js';
import type { Skipped } from '../../formats/proxy.js';
import { servedFormat } from '../formats/client-versions.js';
import { chooseLink, type CompiledRules, type LinkChoice, type LinkRequest } from '../formats/format-rules.js';
import type { FormatSettings } from '../formats/format-settings.js';
import { encodeComment } from '../../formats/share-uri/index.js';
import type { Branding } from '../branding/branding.js';
import { DEFAULT_VIEW, LINK_PAGE_HEADERS, renderLinkPage, viewKey, type LinkPageView } from './link-page.js';
import { etagOf, type ResolvedSubscription } from './render-cache.js';
import { formsFor, type Coding, type CompressedForms } from './compression.js';

export interface LinkAnswer {
  /** The canonical format, or `page`. */
  format: Format | 'page';
  /** The document for an older client that was served instead, when one was (`Subweave-Format` names it). */
  variant?: FormatVariant;
  rule: string;
  /** Response headers with lower-case names, the ETag included. */
  headers: Record<string, string>;
  body: Buffer;
  served: number;
  skipped: Skipped[];
  /** The body's brotli and gzip forms (null: too small to compress). */
  forms: CompressedForms | null;
  /** What each coding writes, built on first use (replyIn). */
  replies: Partial<Record<Coding, ReplyForm>>;
}

/** One coding's form of an answer, ready to write: a warm request allocates no headers. */
export interface ReplyForm {
  etag: string;
  body: Buffer;
  /** Header names and values in one flat list, as node:http takes them: for the 200, and for a 304 (no length). */
  ok: readonly string[];
  notModified: readonly string[];
}

const EXTENSIONS: Record<Format, string> = {
  base64: 'txt',
  plain: 'txt',
  mihomo: 'yaml',
  'sing-box': 'json',
  xray: 'json',
  sip008: 'json',
};

/** The format choice for a request, adjusted to the client's version; `block` answers are the caller's to refuse. */
export function chooseFor(settings: Pick<FormatSettings, 'rules'>, request: LinkRequest): LinkChoice {
  const compiled = settings.rules;
  const key = choiceKey(compiled, request);
  let memo = choices.get(compiled);
  const kept = key === undefined ? undefined : memo?.get(key);
  if (kept) return kept;
  const choice = freshChoice(compiled, request);
  if (key !== undefined) {
    if (!memo) choices.set(compiled, (memo = new Map()));
    else if (memo.size >= MAX_CHOICES) memo.clear();
    memo.set(key, choice);
  }
  return choice;
}

function freshChoice(compiled: CompiledRules, request: LinkRequest): LinkChoice {
  const choice = chooseLink(compiled, request);
  if (choice.result !== 'sing-box' && choice.result !== 'mihomo') return choice;
  const served = servedFormat(choice.result, request.headers['user-agent']);
  return served.format === choice.result && served.variant === undefined
    ? choice
    : { result: served.format, rule: choice.rule, variant: served.variant };
}

/**
 * Clients poll with a few distinct header sets, so each rule list remembers its choices (shared objects: callers must
 * not change them) by everything a choice reads: the path and query format and the headers its rules read. A set
 * with a header repeated or longer than MAX_CHOICE_KEY is chosen afresh each time.
 */
const choices = new WeakMap<CompiledRules, Map<string, LinkChoice>>();
const MAX_CHOICES = 512;
const MAX_CHOICE_KEY = 1024;

function choiceKey(compiled: CompiledRules, request: LinkRequest): string | undefined {
  let key = `${request.pathFormat ?? '\u0001'}\u0000${request.queryFormat ?? '\u0001'}`;
  for (const name of compiled.readHeaders) {
    const value = request.headers[name];
    if (Array.isArray(value)) return undefined;
    key += `\u0000${value ?? '\u0001'}`;
  }
  return key.length > MAX_CHOICE_KEY ? undefined : key;
}

/** What the page shows: the link's URL, drawn for one view (language, platform, branding). */
export interface PageRequest {
  url: string;
  view?: LinkPageView | undefined;
}

/**
 * The answer for a format is built once per (cached resolution, settings version, format, rule), the page's once per
 * (cached resolution, settings version, rule, view, branding), and shared by every request that gets it: a warm
 * request allocates no headers. `page` is read only for the page, which needs it. Callers must not change what it
 * returns.
 */
export function answerLink(
  resolved: ResolvedSubscription,
  choice: LinkChoice & { result: Format | 'page' },
  settings: FormatSettings,
  page?: PageRequest,
): LinkAnswer {
  if (choice.result === 'page') {
    if (!page) throw new Error('the page is drawn for a link URL');
    return pageAnswer(resolved, choice.rule, settings, page.url, page.view ?? DEFAULT_VIEW);
  }
  let kept = answers.get(resolved);
  if (kept?.version !== settings.version)
    answers.set(resolved, (kept = { version: settings.version, byFormat: new Map() }));
  const served = choice.variant ?? choice.result;
  let byRule = kept.byFormat.get(served);
  if (!byRule) kept.byFormat.set(served, (byRule = new Map()));
  let answer = byRule.get(choice.rule);
  if (!answer) {
    answer = formatAnswer(resolved, choice.result, choice.variant, choice.rule, settings);
    byRule.set(choice.rule, answer);
  }
  return answer;
}

/**
 * By served format, then rule: strings the code and the settings hold, found by identity, where a key joined from them
 * would be a new string to flatten and hash on every request.
 */
const answers = new WeakMap<
  ResolvedSubscription,
  { version: number; byFormat: Map<Format | FormatVariant, Map<string, LinkAnswer>> }
>();

function commonHeaders(
  resolved: ResolvedSubscription,
  result: Format | FormatVariant | 'page',
  rule: string,
  settings: FormatSettings,
) {
  return {
    ...resolved.profile,
    'cache-control': 'private, no-cache',
    vary: withAcceptEncoding(settings.rules.vary),
    'subweave-format': result,
    'subweave-rule': rule,
  };
}

function pageAnswer(
  resolved: ResolvedSubscription,
  rule: string,
  settings: FormatSettings,
  linkUrl: string,
  view: LinkPageView,
): LinkAnswer {
  const set = pageSetOf(resolved, linkUrl, settings.version, view.branding);
  const key = `${viewKey(view)}\u0000${rule}`;
  let answer = set.answers.get(key);
  if (!answer) {
    const page = pageOf(resolved, set, view);
    const common = commonHeaders(resolved, 'page', rule, settings);
    // The page's language comes from the cookie and Accept-Language too (its platform from User-Agent, already listed).
    const vary = `${common.vary}, accept-language, cookie`;
    answer = {
      format: 'page',
      rule,
      headers: Object.freeze({ ...common, ...LINK_PAGE_HEADERS, vary, etag: page.etag }),
      body: page.body,
      served: page.served,
      skipped: [],
      forms: page.forms,
      replies: {},
    };
    set.answers.set(key, answer);
  }
  return answer;
}

function formatAnswer(
  resolved: ResolvedSubscription,
  format: Format,
  variant: FormatVariant | undefined,
  rule: string,
  settings: FormatSettings,
): LinkAnswer {
  const rendered = resolved.render(format, variant);
  const headers: Record<string, string> = {
    ...commonHeaders(resolved, variant ?? format, rule, settings),
    'content-type': CONTENT_TYPES[format],
    'content-disposition': disposition(resolved.subscription.name, EXTENSIONS[format]),
    etag: rendered.etag,
  };
  if (rendered.skipped.length > 0) headers['subweave-skipped'] = String(rendered.skipped.length);
  return {
    format,
    ...(variant && { variant }),
    rule,
    headers: Object.freeze(headers),
    body: rendered.body,
    served: rendered.served,
    skipped: rendered.skipped,
    forms: rendered.forms,
    replies: {},
  };
}

/** Every link answer varies with Accept-Encoding, compressed or not: a cache must not hand one client's form to another. */
const varies = new Map<string, string>();
function withAcceptEncoding(vary: string): string {
  let full = varies.get(vary);
  if (full === undefined) {
    const names = vary.split(',').map((name) => name.trim().toLowerCase());
    full = names.includes('accept-encoding') ? vary : vary === '' ? 'accept-encoding' : `${vary}, accept-encoding`;
    varies.set(vary, full);
  }
  return full;
}

interface RenderedPage {
  body: Buffer;
  etag: string;
  served: number;
  forms: CompressedForms | null;
}

/**
 * The pages of one cached resolution, drawn for one link URL and one branding: one per view (language, platform),
 * and their answers per view and rule. A new branding is a new object (BrandingSettings), so a branding change, like
 * a change of format settings, starts a new set and releases the old one's bytes.
 */
interface PageSet {
  url: string;
  version: number;
  branding: Branding;
  bytes: number;
  pages: Map<string, RenderedPage>;
  answers: Map<string, LinkAnswer>;
}

/** The pages live as long as the cached resolution they show: a QR code costs milliseconds to draw. */
const pageSets = new WeakMap<ResolvedSubscription, PageSet>();

function pageSetOf(resolved: ResolvedSubscription, url: string, version: number, branding: Branding): PageSet {
  let set = pageSets.get(resolved);
  if (set?.url === url && set.version === version && set.branding === branding) return set;
  if (set) resolved.keep(-set.bytes);
  set = { url, version, branding, bytes: 0, pages: new Map(), answers: new Map() };
  pageSets.set(resolved, set);
  return set;
}

function pageOf(resolved: ResolvedSubscription, set: PageSet, view: LinkPageView): RenderedPage {
  const key = viewKey(view);
  const kept = set.pages.get(key);
  if (kept) return kept;
  // The page counts the served lines; it needs no rendered body of any format.
  const served = resolved.lines.length;
  const { name, description, updatedAt, supportUrl, webPageUrl, announce } = resolved.subscription;
  const model = { name, description, updatedAt, servers: served, url: set.url, usage: resolved.usage };
  const body = Buffer.from(renderLinkPage({ ...model, supportUrl, webPageUrl, announce }, view), 'utf8');
  const etag = etagOf(body);
  const grow = (bytes: number) => {
    // A form made after its set was replaced is not kept by anything the cache counts.
    if (pageSets.get(resolved) !== set) return;
    set.bytes += bytes;
    resolved.keep(bytes);
  };
  const page = { body, etag, served, forms: formsFor(body, etag, grow) };
  set.pages.set(key, page);
  grow(body.length);
  return page;
}

function disposition(name: string, extension: string): string {
  const asciiName = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${asciiName}.${extension}"; filename*=UTF-8''${encodeComment(name)}.${extension}`;
}

/**
 * What `answer` writes in `coding`: its compressed form (the identity form for a body too small to compress, or
 * when compressing failed), or undefined while that form is still being made (`answer.forms.make`).
 */
export function replyIn(answer: LinkAnswer, coding: Coding): ReplyForm | undefined {
  const kept = answer.replies[coding];
  if (kept) return kept;
  const form = coding === 'identity' || !answer.forms ? null : answer.forms.get(coding);
  if (form === undefined) return undefined;
  const reply = form
    ? replyForm(answer.headers, form.body, form.etag, coding)
    : replyForm(answer.headers, answer.body, answer.headers['etag']!, 'identity');
  answer.replies[coding] = reply;
  return reply;
}

function replyForm(headers: Readonly<Record<string, string>>, body: Buffer, etag: string, coding: Coding): ReplyForm {
  const notModified: string[] = [];
  for (const [name, value] of Object.entries(headers)) notModified.push(name, name === 'etag' ? etag : value);
  if (coding !== 'identity') notModified.push('content-encoding', coding);
  return { etag, body, ok: [...notModified, 'content-length', String(body.length)], notModified };
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored, `*` matches anything. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
