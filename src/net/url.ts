// URL parsing that answers null instead of throwing, for the places that classify or follow user-given URLs.

export function parseUrl(text: string, base?: URL): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

/** The URL without its #fragment (the part a server never sees). */
export function withoutFragment(url: URL | null): URL | null {
  if (url) url.hash = '';
  return url;
}
