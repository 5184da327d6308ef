// Latin snippets put into translated text (URI schemes and examples) wrapped in Unicode isolates, so that a
// right-to-left sentence keeps their characters in order: without them Persian showed `//:vless` (docs/dashboard.md).
const LRI = '\u2066';
const PDI = '\u2069';

/** `text` as a left-to-right island in any sentence; works in attributes and descriptions, where <bdi> cannot go. */
export function isolateLtr(text: string): string {
  return `${LRI}${text}${PDI}`;
}

/** The snippets the catalogs name as placeholders: `{{schemes}}`, `{{http}}`, `{{https}}`. */
export const URI_SNIPPETS = {
  schemes: isolateLtr('vless://, vmess://, trojan://, ss://…'),
  http: isolateLtr('http://'),
  https: isolateLtr('https://'),
};
