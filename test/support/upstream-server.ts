// A local stand-in for upstream subscription providers: a node:http server on 127.0.0.1 with per-path bodies and request counters.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { unique } from './factories.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface UpstreamServer {
  origin: string;
  /** Serves `body` (a text body with status 200, or a handler) at a fresh unique path; returns its full URL. */
  add(body: string | Handler): string;
  /** Replaces what an already added URL serves. */
  set(url: string, body: string | Handler): void;
  /** Requests received for this URL so far. */
  hits(url: string): number;
  /** The request headers of every request received for this URL so far, oldest first. */
  headers(url: string): IncomingHttpHeaders[];
  /** Requests received on any path so far. */
  totalHits(): number;
  close(): Promise<void>;
}

export async function startUpstream(): Promise<UpstreamServer> {
  const routes = new Map<string, Handler>();
  const counts = new Map<string, number>();
  const received = new Map<string, IncomingHttpHeaders[]>();
  let total = 0;
  const { origin, close } = await listenLocal((req, res) => {
    const path = req.url ?? '/';
    total += 1;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    received.set(path, [...(received.get(path) ?? []), req.headers]);
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404).end('not found');
  });
  const pathOf = (url: string): string => new URL(url).pathname + new URL(url).search;
  const asHandler = (body: string | Handler): Handler => (typeof body === 'string' ? text(body) : body);
  return {
    origin,
    add(body) {
      const path = `/${unique('feed')}`;
      routes.set(path, asHandler(body));
      return origin + path;
    },
    set(url, body) {
      routes.set(pathOf(url), asHandler(body));
    },
    hits: (url) => counts.get(pathOf(url)) ?? 0,
    headers: (url) => received.get(pathOf(url)) ?? [],
    totalHits: () => total,
    close,
  };
}

/** A node:http server on 127.0.0.1 at a free port; `close` also ends kept-alive connections. */
export async function listenLocal(handler: Handler): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts one upstream for the enclosing suite (beforeAll) and stops it afterwards; read it inside tests. */
export function useUpstream(): { current: UpstreamServer } {
  const holder = {} as { current: UpstreamServer };
  beforeAll(async () => {
    holder.current = await startUpstream();
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

export const text =
  (body: string, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  };

export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

/** Answers after `ms` (or never, when the client gives up first). */
export const slow =
  (ms: number, body: string): Handler =>
  (_req, res) => {
    const timer = setTimeout(() => res.writeHead(200).end(body), ms);
    res.on('close', () => clearTimeout(timer));
  };

/** Streams the body without a content-length (chunked), so only the byte count can reveal its size. */
export const chunked =
  (body: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const bytes = Buffer.from(body);
    for (let i = 0; i < bytes.length; i += 512) res.write(bytes.subarray(i, i + 512));
    res.end();
  };

/** `count` distinct trojan lines on hosts `<label>-<i>.example.net`, each with its own upstream #remark. */
export function upstreamLines(count: number, label = unique('up')): string[] {
  return Array.from(
    { length: count },
    (_, i) => `trojan://pw${i}@${label}-${i}.example.net:443?sni=example.org#${label}%20${i}`,
  );
}

export const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
