// Names of the servers in a plain list of share URIs (the `plain` format): the `#fragment`, or a vmess link's `ps`.

export interface ServedServer {
  uri: string;
  name: string;
}

export function serversOf(plainBody: string): ServedServer[] {
  return plainBody
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((uri) => ({ uri, name: nameOf(uri) }));
}

function nameOf(uri: string): string {
  const hash = uri.indexOf('#');
  if (hash >= 0 && hash < uri.length - 1) return safeDecode(uri.slice(hash + 1));
  if (uri.startsWith('vmess://')) {
    try {
      const json = JSON.parse(atob(uri.slice('vmess://'.length).split('#')[0] ?? '')) as { ps?: unknown };
      if (typeof json.ps === 'string' && json.ps.trim() !== '') return json.ps;
    } catch {
      // Not the base64 JSON form: fall back to the host below.
    }
  }
  return hostOf(uri);
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
