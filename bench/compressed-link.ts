// Measures compressed public links on a realistic subscription: the bytes on the wire per format and coding, what making each form costs, and the warm compressed link against a bare node:http process sending the same compressed bytes.
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startServiceProcess } from './service-process.js';
import { seedLink } from './link-seed.js';
import { median } from '../scripts/support/stats.js';
import { wrk } from './wrk.js';
import { cpuPerRequest, loadInTurns, type TargetLoad } from './alternating-load.js';
import { onCpus, pinningNote, SERVER_CPUS } from './cpu-pinning.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
/** Each server's seconds come in this many one-second turns, alternating with the other (bench/alternating-load.ts). */
const SLICES = Number(process.env['BENCH_SLICES'] ?? SECONDS);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 4);
/**
 * Each process is loaded this long before it is measured: the JIT compiles the request path within the first second,
 * but the service's heap grows for about two seconds of load more, with scavenges of 10-17 ms instead of 1-2.
 */
const WARM_UP_SECONDS = Number(process.env['BENCH_WARM_UP_SECONDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const LOG_LEVEL = process.env['BENCH_LOG_LEVEL'] ?? 'info';
const FORMATS = ['base64', 'mihomo', 'sing-box', 'xray', 'sip008', 'page'] as const;
const CODINGS = ['identity', 'gzip', 'br'] as const;
type Coding = (typeof CODINGS)[number];

/** Servers in the realistic subscription: as many as one request may add. */
const SERVERS = 150;
const COUNTRIES = ['🇩🇪 Germany', '🇳🇱 Netherlands', '🇫🇮 Finland', '🇺🇸 United States', '🇹🇷 Turkey', '🇯🇵 Japan'];

/**
 * A provider's subscription as they come: three providers, each with its user's UUID and REALITY key, servers on
 * their own addresses and ports with short ids, paths and passwords of their own, names by country.
 */
function realisticLines(): string[] {
  const providers = Array.from({ length: 3 }, () => ({
    uuid: randomUUID(),
    pbk: randomBytes(32).toString('base64url'),
    password: randomBytes(12).toString('base64url'),
  }));
  const octet = () => 1 + (randomBytes(1)[0]! % 254);
  const ip = () => `${octet()}.${octet()}.${octet()}.${octet()}`;
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  return Array.from({ length: SERVERS }, (_, i) => {
    const { uuid, pbk, password } = providers[i % 3]!;
    const name = encodeURIComponent(`${COUNTRIES[i % COUNTRIES.length]} ${i + 1}`);
    const port = 1024 + (randomBytes(2).readUInt16BE() % 60000);
    switch (i % 5) {
      case 0:
        return `vless://${uuid}@${ip()}:443?encryption=none&security=reality&sni=www.microsoft.com&fp=chrome&pbk=${pbk}&sid=${hex(4)}&flow=xtls-rprx-vision&type=tcp#${name}`;
      case 1:
        return `vless://${uuid}@${hex(3)}.cdn-${i % 7}.example.net:443?encryption=none&security=tls&sni=cdn-${i % 7}.example.net&type=ws&host=cdn-${i % 7}.example.net&path=%2F${hex(6)}%3Fed%3D2048#${name}`;
      case 2:
        return `trojan://${password}@${ip()}:${port}?security=tls&sni=t${i}.example.org&type=grpc&serviceName=${hex(4)}#${name}`;
      case 3:
        return `ss://${Buffer.from(`chacha20-ietf-poly1305:${randomBytes(16).toString('base64')}`).toString('base64url')}@${ip()}:${port}#${name}`;
      default:
        return `hysteria2://${password}@${ip()}:${port}?sni=h${i}.example.org&obfs=salamander&obfs-password=${hex(8)}#${name}`;
    }
  });
}

/** Creates the realistic subscription through the running service, as a second user; returns its link's path. */
async function seedRealistic(env: NodeJS.ProcessEnv, base: string): Promise<string> {
  const run = promisify(execFile);
  const token = (await run(process.execPath, ['dist/cli.js', 'users', 'create', '2'], { env })).stdout.trim();
  const response = await fetch(`${base}/api/v1/subs`, {
    method: 'POST',
    headers: { 'api-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'realistic', sources: realisticLines() }),
  });
  if (!response.ok) throw new Error(`POST /api/v1/subs: ${response.status} ${await response.text()}`);
  return `/sub/${((await response.json()) as { token: string }).token}`;
}

/** The bare server: the compressed bytes with the same validator and coding headers, nothing else. */
const BARE_SOURCE = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.argv[1]);
const [etag, coding] = [process.argv[2], process.argv[3]];
http.createServer((request, response) => {
  response.writeHead(200, {
    'content-type': 'text/plain; charset=utf-8', etag, 'content-encoding': coding, vary: 'accept-encoding',
  });
  response.end(body);
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

async function fetchForm(base: string, path: string, coding: Coding) {
  const headers: Record<string, string> = { 'accept-encoding': coding };
  if (path.endsWith('/page')) Object.assign(headers, { accept: 'text/html', 'user-agent': 'Mozilla/5.0' });
  const url = `${base}${path.endsWith('/page') ? path.slice(0, -'/page'.length) : path}`;
  // node's fetch would decode the body: a raw request keeps the bytes as they went over the wire.
  const { request } = await import('node:http');
  return new Promise<{ body: Buffer; headers: Record<string, unknown> }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The median milliseconds of `make` over a few runs (synchronous here, to time the work itself). */
function timed(make: () => Buffer): { ms: number; bytes: number } {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    bytes = make().length;
    times.push(performance.now() - started);
  }
  return { ms: Number(median(times).toFixed(2)), bytes };
}

async function main(): Promise<void> {
  const link = await seedLink(LOG_LEVEL);
  try {
    // Bytes on the wire and the cost of each form, from one service process.
    const service = await startServiceProcess(link.env);
    const realistic = await seedRealistic(link.env, service.base);
    const sizes: Record<string, Record<Coding, number>> = {};
    const costs: Record<string, unknown> = {};
    const bodies = new Map<string, Buffer>();
    try {
      for (const format of FORMATS) {
        const path = `${realistic}/${format}`;
        const row = {} as Record<Coding, number>;
        for (const coding of CODINGS) {
          // The first request for a coding makes its form; the second is the warm answer.
          await fetchForm(service.base, path, coding);
          const answer = await fetchForm(service.base, path, coding);
          row[coding] = answer.body.length;
          if (coding === 'identity') bodies.set(format, answer.body);
        }
        sizes[format] = row;
        const body = bodies.get(format)!;
        const brotli = (quality: number) => () =>
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: quality,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          });
        costs[format] = {
          gzip_6: timed(() => gzipSync(body)),
          br_4: timed(brotli(4)),
          br_5: timed(brotli(5)),
          br_6: timed(brotli(6)),
          br_11: timed(brotli(11)),
        };
      }
    } finally {
      await service.stop();
    }

    const rounds: Array<{
      coding: string;
      ratio: number;
      cpu_ratio: number;
      bare_node_http: TargetLoad;
      compressed_link: TargetLoad;
      [field: string]: unknown;
    }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const coding of ['gzip', 'br'] as const) rounds.push({ coding, ...(await measureRound(realistic, coding)) });
    }
    const ratios = (coding: string) => rounds.filter((r) => r.coding === coding).map((r) => r.ratio);
    const cpuRatios = (coding: string) => rounds.filter((r) => r.coding === coding).map((r) => r.cpu_ratio);
    console.log(
      JSON.stringify(
        {
          log_level: LOG_LEVEL,
          cpus: pinningNote,
          bytes_on_the_wire: sizes,
          compress_ms_and_bytes: costs,
          rounds,
          median_ratio: { gzip: median(ratios('gzip')), br: median(ratios('br')) },
          median_cpu_ratio: { gzip: median(cpuRatios('gzip')), br: median(cpuRatios('br')) },
          median_cpu_us_per_request: {
            bare_node_http: cpuPerRequest(rounds.map((r) => r.bare_node_http)),
            compressed_link: cpuPerRequest(rounds.map((r) => r.compressed_link)),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await link.close();
  }

  /** A fresh service and a fresh bare server sending the service's compressed bytes, both warmed, then wrk on each. */
  async function measureRound(path: string, coding: 'gzip' | 'br') {
    const service = await startServiceProcess(link.env);
    let bare: { pid: number; url: string; stop(): void } | undefined;
    try {
      const url = `${service.base}${path}`;
      await fetchForm(service.base, path, coding);
      const form = await fetchForm(service.base, path, coding);
      const bodyFile = join(link.dir, `body.${coding}`);
      writeFileSync(bodyFile, form.body);
      const child = spawn(
        ...onCpus(SERVER_CPUS, process.execPath, ['-e', BARE_SOURCE, bodyFile, String(form.headers['etag']), coding]),
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const port = await new Promise<string>((resolve) =>
        child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim())),
      );
      bare = { pid: child.pid!, url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
      const headers = { 'accept-encoding': coding };
      for (const target of [url, bare.url])
        await wrk(target, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS, headers });
      const loadBefore = loadavg()[0] ?? 0;
      const [bareResult, linkResult] = (await loadInTurns(
        [
          { url: bare.url, pid: bare.pid, headers },
          { url, pid: service.pid, headers },
        ],
        { connections: CONNECTIONS, seconds: SECONDS, slices: SLICES },
      )) as [TargetLoad, TargetLoad];
      return {
        body_bytes: form.body.length,
        bare_node_http: bareResult,
        compressed_link: linkResult,
        ratio: Number((linkResult.requests_per_second / bareResult.requests_per_second).toFixed(3)),
        cpu_ratio: Number((linkResult.requests_per_cpu_second / bareResult.requests_per_cpu_second).toFixed(3)),
        load_average_1m: `${loadBefore.toFixed(2)} -> ${loadavg()[0]?.toFixed(2)}`,
      };
    } finally {
      bare?.stop();
      await service.stop();
    }
  }
}

await main();
