// The server names a preview's plain body carries: each line is a share link whose name is its #fragment, or the
// `ps` of a vmess link's JSON, or the `remarks` of an ssr link; a line with neither shows as it is.
export function serverNames(body: string, limit: number): string[] {
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(0, limit)
    .map(nameOf);
}

function nameOf(line: string): string {
  const scheme = line.slice(0, line.indexOf('://')).toLowerCase();
  if (scheme === 'vmess') return field(decodeBase64(line.slice(8)), 'ps') ?? line;
  if (scheme === 'ssr') {
    const remarks = /[?&]remarks=([^&]*)/.exec(decodeBase64(line.slice(6)) ?? '')?.[1];
    return remarks ? (decodeBase64(remarks) ?? line) : line;
  }
  const hash = line.indexOf('#');
  if (hash < 0) return line;
  try {
    return decodeURIComponent(line.slice(hash + 1));
  } catch {
    return line.slice(hash + 1);
  }
}

function decodeBase64(text: string): string | undefined {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''));
    return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function field(json: string | undefined, key: string): string | undefined {
  if (json === undefined) return undefined;
  try {
    const value = (JSON.parse(json) as Record<string, unknown>)[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}
