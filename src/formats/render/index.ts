// The one entry point that turns parsed servers into a client's native document, and checks admin templates.
import { parseDocument } from 'yaml';
import type { Format, TemplatedFormat } from '../formats.js';
import type { ProxyNode, Skipped } from '../proxy.js';
import { BUILTIN_TEMPLATES } from './builtin-templates.js';
import { mihomo } from './mihomo.js';
import { uniqueNames } from './names.js';
import type { Named, Parsed, Renderer, RenderOptions } from './renderer.js';
import { singBox } from './sing-box.js';
import { sip008 } from './sip008.js';
import { templateSamples } from './template-samples.js';
import { xray } from './xray.js';

export { BUILTIN_TEMPLATES, SERVERS_MARKER } from './builtin-templates.js';
export { RESERVED_NAMES, uniqueNames } from './names.js';
export { MAX_TEMPLATE_DEPTH } from './template-depth.js';
export type { RenderOptions } from './renderer.js';

/** The formats rendered here; base64 and plain are the share URIs themselves. */
export type RenderedFormat = Exclude<Format, 'base64' | 'plain'>;

const RENDERERS: Record<RenderedFormat, Renderer<unknown, unknown>> = {
  mihomo: mihomo as Renderer<unknown, unknown>,
  'sing-box': singBox as Renderer<unknown, unknown>,
  xray: xray as Renderer<unknown, unknown>,
  sip008: sip008 as Renderer<unknown, unknown>,
};

/** Parsed templates by format and text: a stored template is parsed once, not on every request. */
const parsedTemplates = new Map<string, Parsed<unknown>>();
const PARSED_TEMPLATES_KEPT = 16;

function parsedTemplate(format: RenderedFormat, text: string): Parsed<unknown> {
  const key = `${format}\u0000${text}`;
  let parsed = parsedTemplates.get(key);
  if (parsed === undefined) {
    parsed = RENDERERS[format].parseTemplate(text);
    if (parsedTemplates.size >= PARSED_TEMPLATES_KEPT)
      parsedTemplates.delete(parsedTemplates.keys().next().value as string);
    parsedTemplates.set(key, parsed);
  }
  return parsed;
}

function usableTemplate(format: RenderedFormat, text: string | undefined): unknown {
  const builtin = format === 'sip008' ? '' : BUILTIN_TEMPLATES[format];
  const parsed = parsedTemplate(format, text ?? builtin);
  if (parsed.ok) return parsed.template;
  // The built-in templates always parse; a unit test holds them to it.
  return (parsedTemplate(format, builtin) as { ok: true; template: unknown }).template;
}

/** Why a template is refused: `unusable` when it parses and keeps its insertion points but cannot be served. */
export interface TemplateProblem {
  reason: string;
  unusable: boolean;
}

/**
 * Null when an admin template parses, keeps its insertion points, and renders a server of every protocol into a
 * document its client can read; otherwise why not. What passes here never makes the link fail.
 */
export function templateProblem(format: TemplatedFormat, text: string): TemplateProblem | null {
  const parsed = parsedTemplate(format, text);
  if (!parsed.ok) return { reason: parsed.problem, unusable: parsed.unusable === true };
  let body: string;
  try {
    body = renderFormat(format, templateSamples(), text).body;
  } catch (error) {
    return { reason: `rendering sample servers into it failed: ${(error as Error).message}`, unusable: true };
  }
  const unreadable = unreadableOutput(format, body);
  return unreadable ? { reason: `rendering sample servers into it gives ${unreadable}`, unusable: true } : null;
}

/** Null when the rendered document parses as its client reads it. */
function unreadableOutput(format: TemplatedFormat, body: string): string | null {
  if (format === 'mihomo') {
    const document = parseDocument(body, { prettyErrors: false });
    return document.errors.length > 0 ? `invalid YAML: ${document.errors[0]?.message}` : null;
  }
  try {
    JSON.parse(body);
    return null;
  } catch (error) {
    return `invalid JSON: ${(error as Error).message}`;
  }
}

/**
 * The document `format` serves for `nodes`, and the nodes it had to leave out. `template` defaults to the built-in
 * one; a stored template that no longer passes templateProblem is replaced by the built-in one, so the link still works.
 * `options.variant` must be one of this format's variants.
 */
export function renderFormat(
  format: RenderedFormat,
  nodes: readonly ProxyNode[],
  template?: string,
  options: RenderOptions = {},
): { body: string; skipped: Skipped[] } {
  const renderer = RENDERERS[format];
  const usable = usableTemplate(format, template);
  const skipped: Skipped[] = [];
  const kept: ProxyNode[] = [];
  const items: unknown[] = [];
  for (const node of nodes) {
    const converted = renderer.convert(node, options);
    if (converted.ok) {
      kept.push(node);
      items.push(converted.value);
    } else skipped.push({ data: node.uri, reason: converted.reason });
  }
  const names = uniqueNames(kept, renderer.templateNames(usable));
  const servers: Named<unknown>[] = items.map((item, i) => ({ item, name: names[i] as string }));
  return { body: renderer.render(servers, usable, options), skipped };
}
