// The subscription-userinfo header (traffic and expiry), which the fetcher reads from upstreams and the link serves.

/** Bytes up and down, the byte quota and the expiry in unix seconds; `total` 0 and `expire` 0 mean unlimited. */
export interface Userinfo {
  upload: number;
  download: number;
  total: number;
  expire: number;
}

export const USERINFO_FIELDS = ['upload', 'download', 'total', 'expire'] as const;

const NUMBER = /^\d+(?:\.\d*)?$/;

/**
 * Reads a header as the clients do (docs/api.md, Headers): names in any case, spaces around
 * separators, a trailing `;` and segments without `=` are tolerated; decimals are truncated; a field missing or not
 * a non-negative number reads as 0. Null when no field could be read at all.
 */
export function parseUserinfo(header: string | undefined): Userinfo | null {
  if (header === undefined) return null;
  const found: Partial<Userinfo> = {};
  for (const segment of header.split(';')) {
    const equals = segment.indexOf('=');
    if (equals === -1) continue;
    const name = segment.slice(0, equals).trim().toLowerCase();
    const value = segment.slice(equals + 1).trim();
    if (!isField(name) || !NUMBER.test(value)) continue;
    found[name] = Math.min(Math.trunc(Number(value)), Number.MAX_SAFE_INTEGER);
  }
  if (Object.keys(found).length === 0) return null;
  return {
    upload: found.upload ?? 0,
    download: found.download ?? 0,
    total: found.total ?? 0,
    expire: found.expire ?? 0,
  };
}

/** The header value: `upload=<n>; download=<n>; total=<n>; expire=<unix s>`. */
export function formatUserinfo({ upload, download, total, expire }: Userinfo): string {
  return `upload=${upload}; download=${download}; total=${total}; expire=${expire}`;
}

function isField(name: string): name is keyof Userinfo {
  return (USERINFO_FIELDS as readonly string[]).includes(name);
}
