// The names of the formats the public link speaks, their aliases and content types, in one list.

export const FORMATS = ['base64', 'plain', 'mihomo', 'sing-box', 'xray', 'sip008'] as const;
export type Format = (typeof FORMATS)[number];

/** Formats rendered into an admin-editable template. */
export const TEMPLATED_FORMATS = ['mihomo', 'sing-box', 'xray'] as const;
export type TemplatedFormat = (typeof TEMPLATED_FORMATS)[number];

export const FORMAT_ALIASES: Readonly<Record<string, Format>> = { clash: 'mihomo' };

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  base64: 'text/plain; charset=utf-8',
  plain: 'text/plain; charset=utf-8',
  mihomo: 'text/yaml; charset=utf-8',
  'sing-box': 'application/json; charset=utf-8',
  xray: 'application/json; charset=utf-8',
  sip008: 'application/json; charset=utf-8',
};

/** The canonical format for a name or alias (exact, lower-case), or null when the name is unknown. */
export function formatNamed(name: string): Format | null {
  if ((FORMATS as readonly string[]).includes(name)) return name as Format;
  return Object.hasOwn(FORMAT_ALIASES, name) ? FORMAT_ALIASES[name]! : null;
}

/** Every name a client may ask for, canonical names first. */
export const FORMAT_NAMES: readonly string[] = [...FORMATS, ...Object.keys(FORMAT_ALIASES)];

/**
 * Documents served in place of a format to clients too old to load it, named in `Subweave-Format`: sing-box 1.10
 * and 1.11 apps get `sing-box-1.11`, Clash apps on the original (non-Meta) core get `clash-classic`.
 */
export const FORMAT_VARIANTS = { 'sing-box-1.11': 'sing-box', 'clash-classic': 'mihomo' } as const;
export type FormatVariant = keyof typeof FORMAT_VARIANTS;
