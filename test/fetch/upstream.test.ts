// The upstream client against a real local HTTP server: content, limits, redirects and the SSRF rule (no internet).
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseUpstreamLines } from '../../src/modules/fetch/content.js';
import { createUpstreamClient, type UpstreamOptions, type UpstreamResult } from '../../src/modules/fetch/upstream.js';
import { type Handler, listenLocal } from '../support/upstream-server.js';

const VLESS = 'vless://3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13@vl.example.com:443?security=tls&type=ws#Frankfurt';
const TROJAN = 'trojan://secret@tr.example.net:443?sni=example.org';
const HY2 = 'hy2://pw@hy.example.net:8443/?sni=x#HY';
const LINES = [VLESS, TROJAN, HY2];
const PLAIN = LINES.join('\n');
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

interface TestServer {
  origin: string;
  port: number;
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const requests: TestServer['requests'] = [];
  const { origin, port, close } = await listenLocal((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404).end('not found');
  });
  return { origin, port, requests, route: (path, handler) => routes.set(path, handler), close };
}

const text =
  (body: string, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  };
const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

const DEFAULTS: UpstreamOptions = {
  timeoutMs: 2000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
  userAgent: 'subweave-test/1.0',
  allowPrivate: true,
};

let server: TestServer;
const clients: Array<{ close(): Promise<void> }> = [];

function fetchWith(options: Partial<UpstreamOptions>, url: string): Promise<UpstreamResult> {
  const client = createUpstreamClient({ ...DEFAULTS, ...options });
  clients.push(client);
  return client.fetch(url);
}

function expectFailure(result: UpstreamResult): string {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result.error;
}

beforeEach(async () => {
  server = await startServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
});

describe('content', () => {
  const cases: Array<[string, string]> = [
    ['plain text', PLAIN],
    ['standard padded base64', base64(`${PLAIN}\n\n`)],
    ['URL-safe unpadded base64', Buffer.from(`${PLAIN}\n# ???>>>`).toString('base64url')],
    ['base64 wrapped at 76 columns', base64(PLAIN).replace(/.{76}/g, '$&\n')],
    ['CRLF lines', `${PLAIN.replace(/\n/g, '\r\n')}\r\n`],
    ['comments and blank lines', `# provider\n\n${VLESS}\n// note\n   \n${TROJAN}\n\n${HY2}\n`],
    ['junk lines', `STATUS=ok\n${VLESS}\n<p>hi</p>\n${TROJAN}\nvless://bad@host:1\n${HY2}\nREMAINS=1GB`],
  ];

  it.each(cases)('parses %s', async (_name, body) => {
    server.route('/sub', text(body));
    const result = await fetchWith({}, `${server.origin}/sub`);
    expect(result).toEqual({ ok: true, lines: LINES, status: 200, finalUrl: `${server.origin}/sub` });
  });

  it('sends the configured User-Agent', async () => {
    server.route('/sub', text(PLAIN));
    await fetchWith({ userAgent: 'subweave/9.9.9' }, `${server.origin}/sub`);
    expect(server.requests[0]?.headers['user-agent']).toBe('subweave/9.9.9');
  });

  it('parses a large body (on the worker thread) into the same lines as the inline parser', async () => {
    const many = Array.from({ length: 30_000 }, (_, i) => `trojan://pw${i}@big-${i}.example.net:443#r${i}`);
    const body = base64(many.join('\n')).replace(/.{76}/g, '$&\r\n');
    server.route('/big', text(body));
    const result = await fetchWith({ maxBytes: 2 * body.length, maxLines: 2000 }, `${server.origin}/big`);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    expect(result).toMatchObject({ ok: true, lines: await parseUpstreamLines(Buffer.from(body), 2000) });
    expect(result.ok && result.lines.length).toBe(2000);
  }, 60_000);

  it('accepts any content type and an empty list', async () => {
    server.route('/html', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    expect(await fetchWith({}, `${server.origin}/html`)).toMatchObject({ ok: true, lines: [] });
  });
});

describe('failures', () => {
  it('reports a non-2xx status', async () => {
    server.route('/boom', text('internal error', 500));
    expect(expectFailure(await fetchWith({}, `${server.origin}/boom`))).toBe('HTTP 500');
    expect(expectFailure(await fetchWith({}, `${server.origin}/missing`))).toBe('HTTP 404');
  });

  it('times out when the server never answers', async () => {
    server.route('/hang', () => undefined);
    const error = expectFailure(await fetchWith({ timeoutMs: 300 }, `${server.origin}/hang`));
    expect(error).toBe('timed out after 300 ms');
  });

  it('times out on a body that dribbles past the overall deadline', async () => {
    server.route('/slow', (req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(`${TROJAN}\n`), 50);
      req.socket.on('close', () => clearInterval(timer));
    });
    const error = expectFailure(await fetchWith({ timeoutMs: 300 }, `${server.origin}/slow`));
    expect(error).toBe('timed out after 300 ms');
  });

  it('stops reading a streamed body as soon as it passes maxBytes', async () => {
    const total = 16 * 1024 * 1024;
    let written = 0;
    const closed = new Promise<boolean>((resolve) => {
      server.route('/big', (_req, res) => {
        res.writeHead(200); // chunked: no Content-Length to refuse up front
        res.on('close', () => resolve(res.writableFinished));
        const chunk = Buffer.alloc(16 * 1024, 'a');
        const pump = (): void => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
    });
    const error = expectFailure(await fetchWith({ maxBytes: 64 * 1024 }, `${server.origin}/big`));
    expect(error).toBe('response larger than 65536 bytes');
    expect(await closed).toBe(false);
    expect(written).toBeLessThan(total / 2);
  });

  it('refuses a declared Content-Length over maxBytes without reading the body', async () => {
    // Headers only: waiting for the body would end in a timeout, not a size error.
    server.route('/declared', (_req, res) => res.writeHead(200, { 'content-length': '2048' }).flushHeaders());
    expect(expectFailure(await fetchWith({ maxBytes: 1024, timeoutMs: 1000 }, `${server.origin}/declared`))).toBe(
      'response larger than 1024 bytes',
    );
    server.route('/exact', text(PLAIN));
    expect(await fetchWith({ maxBytes: Buffer.byteLength(PLAIN) }, `${server.origin}/exact`)).toMatchObject({
      ok: true,
    });
  });

  it('reports a connection error briefly', async () => {
    const closed = await startServer();
    await closed.close();
    const error = expectFailure(await fetchWith({}, `${closed.origin}/sub`));
    expect(error).toMatch(/ECONNREFUSED/);
    expect(error.length).toBeLessThan(120);
  });

  it.each([
    ['not a URL', 'URL is not valid'],
    ['ftp://127.0.0.1/sub', 'unsupported URL scheme "ftp"'],
    ['http://user:pw@127.0.0.1/sub', 'URL must not contain credentials'],
  ])('refuses %s before connecting', async (url, message) => {
    expect(expectFailure(await fetchWith({}, url))).toBe(message);
  });
});

describe('redirects', () => {
  beforeEach(() => {
    server.route('/sub', text(PLAIN));
  });

  it('follows a relative Location', async () => {
    server.route('/old', redirect('/sub', 301));
    expect(await fetchWith({}, `${server.origin}/old`)).toEqual({
      ok: true,
      lines: LINES,
      status: 200,
      finalUrl: `${server.origin}/sub`,
    });
  });

  it('follows an absolute Location through several statuses', async () => {
    server.route('/a', redirect(`${server.origin}/b`, 303));
    server.route('/b', redirect(`${server.origin}/c`, 307));
    server.route('/c', redirect('sub', 308));
    const result = await fetchWith({}, `${server.origin}/a`);
    expect(result).toMatchObject({ ok: true, lines: LINES, finalUrl: `${server.origin}/sub` });
    expect(server.requests.map((r) => r.path)).toEqual(['/a', '/b', '/c', '/sub']);
  });

  it('gives up after maxRedirects hops', async () => {
    server.route('/loop', redirect('/loop'));
    expect(expectFailure(await fetchWith({}, `${server.origin}/loop`))).toBe('too many redirects (max 3)');
    expect(server.requests).toHaveLength(4);
    expect(expectFailure(await fetchWith({ maxRedirects: 0 }, `${server.origin}/loop`))).toBe(
      'too many redirects (max 0)',
    );
  });

  it.each([
    ['ftp://files.example.com/sub', 'redirect refused: unsupported URL scheme "ftp"'],
    ['file:///etc/passwd', 'redirect refused: unsupported URL scheme "file"'],
    ['javascript:alert(1)', 'redirect refused: unsupported URL scheme "javascript"'],
    ['http://user:pw@example.com/sub', 'redirect refused: URL must not contain credentials'],
  ])('refuses a redirect to %s', async (location, message) => {
    server.route('/go', redirect(location));
    expect(expectFailure(await fetchWith({}, `${server.origin}/go`))).toBe(message);
  });

  it('fails on a redirect without Location', async () => {
    server.route('/nowhere', (_req, res) => res.writeHead(302).end());
    expect(expectFailure(await fetchWith({}, `${server.origin}/nowhere`))).toBe('HTTP 302 without a valid Location');
  });
});

describe('SSRF with allowPrivate: false', () => {
  const strict: Partial<UpstreamOptions> = { allowPrivate: false };

  beforeEach(() => {
    server.route('/sub', text(PLAIN));
  });

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/sub`],
    ['localhost', (port: number) => `http://localhost:${port}/sub`],
    ['[::1]', (port: number) => `http://[::1]:${port}/sub`],
    ['[::ffff:127.0.0.1]', (port: number) => `http://[::ffff:127.0.0.1]:${port}/sub`],
    ['[::1:2:3] (inside ::/8)', (port: number) => `http://[::1:2:3]:${port}/sub`],
    ['2130706433 (127.0.0.1 as an integer)', (port: number) => `http://2130706433:${port}/sub`],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s without connecting', async (_name, url) => {
    const error = expectFailure(await fetchWith(strict, url(server.port)));
    expect(error).toMatch(/not a public address|internal name/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to a private address', async () => {
    const lookup = async () => [{ address: '10.0.0.5', family: 4 }];
    const error = expectFailure(await fetchWith({ ...strict, lookup }, `http://intranet.test:${server.port}/sub`));
    expect(error).toBe('host "intranet.test" does not resolve to a public address');
    expect(server.requests).toHaveLength(0);
  });

  it('checks the addresses again at connect time (DNS rebinding)', async () => {
    // The first answer (used by the up-front check) is public; the connection's own lookup then gets loopback.
    const answers = ['93.184.216.34', '127.0.0.1'];
    const calls: string[] = [];
    const lookup = async (hostname: string) => {
      calls.push(hostname);
      return [{ address: answers[Math.min(calls.length - 1, 1)] ?? '', family: 4 }];
    };
    const error = expectFailure(await fetchWith({ ...strict, lookup }, `http://rebind.test:${server.port}/sub`));
    expect(error).toBe('host "rebind.test" does not resolve to a public address');
    expect(calls).toEqual(['rebind.test', 'rebind.test']);
    expect(server.requests).toHaveLength(0);
  });

  // A local server can only listen on loopback, which the rule forbids, so the first hop is served from an address
  // listed in `trustedAddresses` (exact literal IPs, nothing else). The hop after it gets the full rule: what is
  // asserted is that the redirect target is refused before any connection, while the trusted hop itself worked.
  it.each([
    [
      'cloud metadata',
      () => 'http://169.254.169.254/latest/meta-data/',
      'address 169.254.169.254 is not a public address',
    ],
    ['a private literal', () => 'http://10.0.0.1/sub', 'address 10.0.0.1 is not a public address'],
    ['localhost', (port: number) => `http://localhost:${port}/sub`, 'host "localhost" is an internal name'],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/sub`, 'address ::1 is not a public address'],
    [
      'a name resolving to loopback',
      (port: number) => `http://sneaky.test:${port}/sub`,
      'host "sneaky.test" does not resolve to a public address',
    ],
  ])('refuses a redirect from an allowed hop to %s', async (_name, target, reason) => {
    server.route('/go', redirect(target(server.port)));
    const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const options = { ...strict, lookup, trustedAddresses: ['127.0.0.1'] };
    expect(expectFailure(await fetchWith(options, `${server.origin}/go`))).toBe(`redirect refused: ${reason}`);
    expect(server.requests.map((r) => r.path)).toEqual(['/go']);
  });

  it('still serves the trusted hop itself (the test seam works as described)', async () => {
    const result = await fetchWith({ ...strict, trustedAddresses: ['127.0.0.1'] }, `${server.origin}/sub`);
    expect(result).toMatchObject({ ok: true, lines: LINES });
  });
});

describe('injected lookup with allowPrivate: true', () => {
  it('connects through the injected resolver', async () => {
    server.route('/sub', text(base64(PLAIN)));
    const lookup = async (hostname: string) =>
      hostname === 'upstream.test' ? [{ address: '127.0.0.1', family: 4 }] : [];
    const result = await fetchWith({ lookup }, `http://upstream.test:${server.port}/sub`);
    expect(result).toEqual({
      ok: true,
      lines: LINES,
      status: 200,
      finalUrl: `http://upstream.test:${server.port}/sub`,
    });
    expect(server.requests[0]?.headers.host).toBe(`upstream.test:${server.port}`);
  });

  it('reports a name that does not resolve', async () => {
    const lookup = async () => [];
    expect(expectFailure(await fetchWith({ lookup }, `http://nowhere.test:${server.port}/sub`))).toMatch(/ENOTFOUND/);
  });
});

describe('DNS inside FETCH_TIMEOUT_MS', () => {
  /** A resolver that never answers, and records the signal it was given (undefined: nobody could tell it to stop). */
  function hangingLookup() {
    const signals: Array<AbortSignal | undefined> = [];
    const lookup = (_hostname: string, signal?: AbortSignal) => {
      signals.push(signal);
      return new Promise<Array<{ address: string; family: number }>>(() => undefined);
    };
    return { lookup, signals };
  }

  it('gives up on a lookup that never answers once the timeout has passed (the up-front check)', async () => {
    const { lookup, signals } = hangingLookup();
    const error = expectFailure(
      await fetchWith({ allowPrivate: false, lookup, timeoutMs: 300 }, `http://hanging-dns.test:${server.port}/sub`),
    );
    expect(error).toBe('timed out after 300 ms');
    expect(signals.map((signal) => signal?.aborted)).toEqual([true]);
    expect(server.requests).toHaveLength(0);
  });

  it("ends the connection's own lookup with the deadline, not with a connect timeout of its own", async () => {
    // allowPrivate: the up-front check is skipped, so the only lookup is the one the connection makes.
    const { lookup, signals } = hangingLookup();
    const error = expectFailure(
      await fetchWith({ lookup, timeoutMs: 300 }, `http://hanging-dns.test:${server.port}/sub`),
    );
    expect(error).toBe('timed out after 300 ms');
    expect(signals.map((signal) => signal?.aborted)).toEqual([true]);
    expect(server.requests).toHaveLength(0);
  });

  it("ends a redirect target's connect-time lookup with the same deadline", async () => {
    let calls = 0;
    const signals: Array<AbortSignal | undefined> = [];
    const lookup = (_hostname: string, signal?: AbortSignal) => {
      signals.push(signal);
      return ++calls === 1
        ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
        : new Promise<Array<{ address: string; family: number }>>(() => undefined);
    };
    server.route('/go', redirect(`http://second-hop.test:${server.port}/sub`));
    const error = expectFailure(await fetchWith({ lookup, timeoutMs: 300 }, `http://first-hop.test:${server.port}/go`));
    expect(error).toBe('timed out after 300 ms');
    expect(signals.at(-1)?.aborted).toBe(true);
    expect(server.requests.map((r) => r.path)).toEqual(['/go']);
  });
});
