// Shows an owner what the public link answers for given request headers, without polling the link itself.
import { errors } from '../../http/errors.js';
import type { Skipped } from '../../formats/proxy.js';
import type { FormatSettings } from '../formats/format-settings.js';
import { answerLink, chooseFor } from './link-answer.js';
import type { RenderCache } from './render-cache.js';
import { linkPageView } from './link-page.js';
import type { BrandingSettings } from '../branding/branding.js';
import type { Chain } from './resolver.js';
import { applyTransforms, type TransformStep } from '../transforms/apply.js';
import { requestedChain } from '../transforms/stored.js';

export interface PreviewQuery {
  format?: string | undefined;
  user_agent?: string | undefined;
  accept?: string | undefined;
  /** A chain to try instead of the saved one (unvalidated input). */
  transforms?: unknown[] | undefined;
}

export interface LinkPreviewAnswer {
  format: string;
  rule: string;
  served: number;
  skipped: Skipped[];
  headers: Record<string, string>;
  body: string;
  /** With `transforms` only: each operator's servers in and out. */
  steps?: TransformStep[];
}

export type LinkPreview = (token: string, query: PreviewQuery) => Promise<LinkPreviewAnswer>;

/** The caller has checked that `token` is the owner's; an inactive owner's link answers 404 like the link does. */
export function linkPreview(
  cache: RenderCache,
  formats: FormatSettings,
  branding: BrandingSettings,
  publicBaseUrl: string,
  maxServers: number,
): LinkPreview {
  return async (token, query) => {
    const headers: Record<string, string> = {};
    if (query.user_agent !== undefined) headers['user-agent'] = query.user_agent;
    if (query.accept !== undefined) headers['accept'] = query.accept;
    const choice = chooseFor(formats, { queryFormat: query.format, headers });
    if (choice.result === 'block') {
      const refusal = errors.clientBlocked(choice.rule);
      return {
        format: 'block',
        rule: choice.rule,
        served: 0,
        skipped: [],
        headers: { 'content-type': 'application/json; charset=utf-8', ...refusal.headers },
        body: JSON.stringify({ error: refusal.code, message: refusal.message, details: refusal.details }),
      };
    }
    const trial = query.transforms === undefined ? undefined : trialChain(query.transforms, maxServers);
    const resolved = trial ? await cache.withChain(token, trial.chain) : await cache.get(token);
    if (!resolved) throw errors.subscriptionNotFound();
    // The page as the link draws it for these headers: English (no Accept-Language), their platform, the branding.
    const view = choice.result === 'page' ? linkPageView({ headers }, branding.current) : undefined;
    const url = `${publicBaseUrl}/sub/${token}`;
    const answer = answerLink(resolved, { ...choice, result: choice.result }, formats, { url, view });
    return {
      format: answer.variant ?? answer.format,
      rule: answer.rule,
      served: answer.served,
      skipped: answer.skipped,
      headers: answer.headers,
      body: answer.body.toString('utf8'),
      ...(trial ? { steps: trial.steps } : {}),
    };
  };
}

/** The chain to try, recording its steps when the resolution runs it; an empty list tries none. */
function trialChain(input: unknown[], maxServers: number): { chain: Chain | null; steps: TransformStep[] } {
  const compiled = requestedChain(input);
  const trial: { chain: Chain | null; steps: TransformStep[] } = { chain: null, steps: [] };
  if (compiled.length > 0) {
    trial.chain = (servers) => {
      const outcome = applyTransforms(servers, compiled, maxServers);
      trial.steps = outcome.steps;
      return outcome.servers;
    };
  }
  return trial;
}
