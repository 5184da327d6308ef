// The shape every format's renderer has, so renderFormat can skip, name and render the same way for each.
import type { FormatVariant } from '../formats.js';
import type { ProxyNode } from '../proxy.js';
import type { Converted } from './common.js';
import { MAX_TEMPLATE_DEPTH, nestsDeeper } from './template-depth.js';

/** A converted server and the unique name it is shown under. */
export interface Named<Item> {
  item: Item;
  name: string;
}

/** What shapes a document besides its servers and template. */
export interface RenderOptions {
  /** A document for older clients (formats.ts FORMAT_VARIANTS); it must belong to the rendered format. */
  variant?: FormatVariant;
  /** Xray: write `allowInsecure` for links that ask for it (the admin's `xray_allow_insecure`) instead of skipping them. */
  xrayAllowInsecure?: boolean;
}

export interface Renderer<Template, Item> {
  /** The parsed template, or a short reason it cannot be used. */
  parseTemplate(text: string): Parsed<Template>;
  /** Group and outbound names of the template, which no server may take. */
  templateNames(template: Template): Iterable<string>;
  /** The node in the target's terms, or why the target cannot express it. */
  convert(node: ProxyNode, options: RenderOptions): Converted<Item>;
  /** The document text; `servers` is in order and may be empty. */
  render(servers: readonly Named<Item>[], template: Template, options: RenderOptions): string;
}

/** `unusable`: the text parses but cannot be served (400 invalid_template rather than validation_failed). */
export type Parsed<Template> = { ok: true; template: Template } | { ok: false; problem: string; unusable?: true };

export const TOO_DEEP = {
  ok: false,
  problem: `it nests deeper than ${MAX_TEMPLATE_DEPTH} levels`,
  unusable: true,
} as const;

/** A template group list with the marker replaced by every server name; `fallback` when that leaves it empty. */
export function expandMarker(
  list: readonly unknown[],
  marker: string,
  names: readonly string[],
  fallback: string,
): readonly unknown[] {
  if (!list.includes(marker)) return list;
  const expanded = list.flatMap((entry): readonly unknown[] => (entry === marker ? names : [entry]));
  return expanded.length > 0 ? expanded : [fallback];
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON template's top-level object, or why the text is not one or cannot be served. */
export function parseJsonObject(
  text: string,
): { ok: true; document: Json } | { ok: false; problem: string; unusable?: true } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not valid JSON: ${(error as Error).message}` };
  }
  if (!isObject(document)) return { ok: false, problem: 'the document is not an object' };
  // JSON.parse copes with any depth; JSON.stringify, which renders the document, does not.
  return nestsDeeper(document) ? TOO_DEEP : { ok: true, document };
}
