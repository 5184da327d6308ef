// A loopback server that answers the link page drawn for each request's view (language, platform) and a fixed branding,
// with the link's own headers: the browser tests and scripts/screenshots.ts open the page through it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Branding } from '../../src/modules/branding/branding.js';
import {
  LINK_PAGE_HEADERS,
  linkPageView,
  renderLinkPage,
  type LinkPageModel,
} from '../../src/modules/resolve/link-page.js';

export interface PageViewServer {
  origin: string;
  /** The page's path on the server. */
  path: string;
  close(): Promise<void>;
}

export async function servePageViews(model: LinkPageModel, branding: Branding): Promise<PageViewServer> {
  const path = new URL(model.url).pathname;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    const view = linkPageView({ headers: request.headers, lang: url.searchParams.get('lang') ?? undefined }, branding);
    response.writeHead(200, { ...LINK_PAGE_HEADERS, 'cache-control': 'no-store' });
    response.end(renderLinkPage(model, view));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    path,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
