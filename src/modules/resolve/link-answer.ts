// Builds what the public link answers for one request (format choice, body, headers), for the link itself and for the preview.
import { CONTENT_TYPES, type Format, type FormatVariant } from '../../formats/formats.js';
import type { Skipped } from '../../formats/proxy.js';
import { servedFormat } from '../formats/client-versions.js';
import { chooseLink, type LinkChoice, type LinkRequest } from '../formats/format-rules.js';
import type { FormatSettings } from '../formats/format-settings.js';
import { encodeComment } from '../../formats/share-uri/index.js';
import { LINK_PAGE_HEADERS, renderLinkPage } from './link-page.js';
import { etagOf, type ResolvedSubscription } from './render-cache.js';

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
export function chooseFor(settings: FormatSettings, request: LinkRequest): LinkChoice {
  const choice = chooseLink(settings.rules, request);
  if (choice.result !== 'sing-box' && choice.result !== 'mihomo') return choice;
  const served = servedFormat(choice.result, request.headers['user-agent']);
  return served.format === choice.result && served.variant === undefined
    ? choice
    : { result: served.format, rule: choice.rule, variant: served.variant };
}

/**
 * The answer for a format is built once per (cached resolution, settings version, format, rule) and shared by every
 * request that gets it: a warm request allocates no headers. Callers must not change what it returns.
 */
export function answerLink(
  resolved: ResolvedSubscription,
  choice: LinkChoice & { result: Format | 'page' },
  settings: FormatSettings,
  linkUrl: string,
): LinkAnswer {
  if (choice.result === 'page') return pageAnswer(resolved, choice.rule, settings, linkUrl);
  let kept = answers.get(resolved);
  if (kept?.version !== settings.version)
    answers.set(resolved, (kept = { version: settings.version, byKey: new Map() }));
  const key = `${choice.variant ?? choice.result}\u0000${choice.rule}`;
  let answer = kept.byKey.get(key);
  if (!answer) {
    answer = formatAnswer(resolved, choice.result, choice.variant, choice.rule, settings);
    kept.byKey.set(key, answer);
  }
  return answer;
}

const answers = new WeakMap<ResolvedSubscription, { version: number; byKey: Map<string, LinkAnswer> }>();

function commonHeaders(
  resolved: ResolvedSubscription,
  result: Format | FormatVariant | 'page',
  rule: string,
  settings: FormatSettings,
) {
  return {
    ...resolved.profile,
    'cache-control': 'private, no-cache',
    vary: settings.rules.vary,
    'subweave-format': result,
    'subweave-rule': rule,
  };
}

function pageAnswer(
  resolved: ResolvedSubscription,
  rule: string,
  settings: FormatSettings,
  linkUrl: string,
): LinkAnswer {
  const page = pageOf(resolved, linkUrl);
  return {
    format: 'page',
    rule,
    headers: { ...commonHeaders(resolved, 'page', rule, settings), ...LINK_PAGE_HEADERS, etag: page.etag },
    body: page.body,
    served: page.served,
    skipped: [],
  };
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
  };
}

interface RenderedPage {
  url: string;
  body: Buffer;
  etag: string;
  served: number;
}

/** The page lives as long as the cached resolution it shows: its QR code costs milliseconds to draw. */
const pages = new WeakMap<ResolvedSubscription, RenderedPage>();

function pageOf(resolved: ResolvedSubscription, url: string): RenderedPage {
  const kept = pages.get(resolved);
  if (kept?.url === url) return kept;
  // The page counts the served lines; it needs no rendered body of any format.
  const served = resolved.lines.length;
  const { name, description, updatedAt, supportUrl, webPageUrl, announce } = resolved.subscription;
  const model = { name, description, updatedAt, servers: served, url, usage: resolved.usage };
  const body = Buffer.from(renderLinkPage({ ...model, supportUrl, webPageUrl, announce }), 'utf8');
  const page = { url, body, etag: etagOf(body), served };
  pages.set(resolved, page);
  return page;
}

function disposition(name: string, extension: string): string {
  const asciiName = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${asciiName}.${extension}"; filename*=UTF-8''${encodeComment(name)}.${extension}`;
}

/**
 * What the link writes for a request: the answer's headers, and its body unless the client's If-None-Match already
 * holds it (a 304, no body). The Fastify route and the link lane both answer through this.
 */
export function linkReply(
  resolved: ResolvedSubscription,
  choice: LinkChoice & { result: Format | 'page' },
  settings: FormatSettings,
  token: string,
  publicBaseUrl: string,
  ifNoneMatch: string | string[] | undefined,
): { headers: Readonly<Record<string, string>>; body: Buffer | undefined; served: number } {
  const { headers, body, served } = answerLink(resolved, choice, settings, `${publicBaseUrl}/sub/${token}`);
  const held = matchesEtag(typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined, headers['etag']!);
  return { headers, body: held ? undefined : body, served };
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored, `*` matches anything. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
