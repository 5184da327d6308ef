// A local upstream subscription server for the fault run: every /feed/<n> serves two known lines, until it is told
// to hang (never answer) or to flood (alternately an endless fast body and a body dripping a few bytes a second).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type UpstreamMode = 'normal' | 'hang' | 'flood';

export interface FaultUpstream {
  origin: string;
  mode: UpstreamMode;
  /** URL of feed number n. */
  url(n: number): string;
  /** The lines a feed's URL serves in normal mode. */
  linesOf(url: string): string[];
  requests: number;
  close(): Promise<void>;
}

const FLOOD_CHUNK = Buffer.from('trojan://pw@flood.example.net:443#flood\n'.repeat(1600));

export async function startUpstream(): Promise<FaultUpstream> {
  const pending = new Set<ServerResponse>();
  let floodTurn = 0;
  const upstream: FaultUpstream = {
    origin: '',
    mode: 'normal',
    url: (n) => `${upstream.origin}/feed/${n}`,
    linesOf: (url) => {
      const n = /\/feed\/(\d+)$/.exec(url)?.[1];
      if (n === undefined) return [];
      return [0, 1].map((i) => `trojan://pw@f${n}-${i}.example.net:443#f${n}-${i}`);
    },
    requests: 0,
    close: async () => {
      for (const response of pending) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((request, response) => {
    upstream.requests += 1;
    pending.add(response);
    response.on('close', () => pending.delete(response));
    if (upstream.mode === 'hang') return; // headers never come
    if (upstream.mode === 'flood') {
      floodTurn += 1;
      return floodTurn % 2 === 0 ? flood(response) : drip(response);
    }
    const lines = upstream.linesOf(`${upstream.origin}${request.url ?? ''}`);
    if (lines.length === 0) response.writeHead(404).end('no such feed');
    else response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

/** Writes as fast as the reader takes it, without a content-length, until the reader goes away. */
function flood(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' });
  const pump = () => {
    while (!response.destroyed && response.write(FLOOD_CHUNK));
  };
  response.on('drain', pump);
  pump();
}

/** Sends a few bytes every 200 ms, forever. */
function drip(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => response.write('trojan://'), 200);
  response.on('close', () => clearInterval(timer));
}
