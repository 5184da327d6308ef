// Measures the warm public link of the built service (its own process) against a bare node:http process and a bare Fastify process returning the same bytes, in alternating wrk rounds, each round with fresh processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from './service-process.js';
import { seedLink, type SeededLink } from './link-seed.js';
import { median } from '../scripts/support/stats.js';
import { wrk } from './wrk.js';
import { cpuPerRequest, loadInTurns, type TargetLoad } from './alternating-load.js';
import { onCpus, pinningNote, SERVER_CPUS } from './cpu-pinning.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
/** Each server's seconds come in this many one-second turns, alternating with the others (bench/alternating-load.ts). */
const SLICES = Number(process.env['BENCH_SLICES'] ?? SECONDS);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 6);
/**
 * Each process is loaded this long before it is measured: the JIT compiles the request path within the first second,
 * but the service's heap grows for about two seconds of load more, with scavenges of 10-17 ms instead of 1-2.
 */
const WARM_UP_SECONDS = Number(process.env['BENCH_WARM_UP_SECONDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
/** The service's LOG_LEVEL; `info` (the default of a deployment) logs every request, to /dev/null here. */
const LOG_LEVEL = process.env['BENCH_LOG_LEVEL'] ?? 'info';
/** Extra node options for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
const NODE_ARGS = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

/** The bare server: the same body and validator headers, nothing else. */
const BARE_SOURCE = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.argv[1]);
const etag = process.argv[2];
http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag });
  response.end(body);
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

/** For reference: Fastify (the service's version, no logger, no hooks) returning the same bytes from a route. */
const FASTIFY_SOURCE = `
const app = require('fastify')({ logger: false });
const body = require('node:fs').readFileSync(process.argv[1]);
const etag = process.argv[2];
app.get('/sub/:token', (request, reply) => {
  reply.header('content-type', 'text/plain; charset=utf-8').header('etag', etag).send(body);
});
app.listen({ port: 0, host: '127.0.0.1' }).then(() => process.stdout.write(app.server.address().port + '\\n'));
`;

/** A reference server from `source`, in its own process (in the project folder, so it finds Fastify). */
async function startReference(source: string, bodyFile: string, etag: string, path: string): Promise<Served> {
  const child = spawn(...onCpus(SERVER_CPUS, process.execPath, ['-e', source, bodyFile, etag]), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) =>
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim())),
  );
  return { url: `http://127.0.0.1:${port}${path}`, pid: child.pid!, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function main(): Promise<void> {
  const link = await seedLink(LOG_LEVEL);
  /** Whatever is running when a round fails, stopped here whatever happens. */
  const running = new Set<{ stop(): Promise<void> }>();
  try {
    const bodyFile = join(link.dir, 'body');
    writeFileSync(bodyFile, link.body);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await measureRound(link, bodyFile, running));
    const summary = {
      body_bytes: link.body.length,
      log_level: LOG_LEVEL,
      cpus: pinningNote,
      rounds,
      median_ratio: median(rounds.map((r) => r.ratio)),
      median_cpu_ratio: median(rounds.map((r) => r.cpu_ratio)),
      median_fastify_ratio: median(rounds.map((r) => r.fastify_ratio)),
      median_cpu_us_per_request: {
        bare_node_http: cpuPerRequest(rounds.map((r) => r.bare_node_http)),
        warm_link: cpuPerRequest(rounds.map((r) => r.warm_link)),
      },
    };
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await Promise.all([...running].map((served) => served.stop()));
    await link.close();
  }
}

/** A process that serves `url` and can be stopped. */
interface Served {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * One round: a fresh service and fresh reference servers, each warmed up, then wrk against each in turn. On this
 * machine a process keeps a speed of its own for its whole life (the same build measured in six processes side by
 * side: 0.55-0.84 of the bare server), so every round starts new ones instead of measuring the same three again.
 */
async function measureRound(link: SeededLink, bodyFile: string, running: Set<{ stop(): Promise<void> }>) {
  const started: Served[] = [];
  const track = (served: Served) => {
    started.push(served);
    running.add(served);
    return served;
  };
  try {
    const service = await startServiceProcess(link.env, { nodeArgs: NODE_ARGS });
    const linkServer = track({ url: `${service.base}${link.path}`, pid: service.pid, stop: service.stop });
    const bare = track(await startReference(BARE_SOURCE, bodyFile, link.etag, '/'));
    const fastify = track(await startReference(FASTIFY_SOURCE, bodyFile, link.etag, link.path));
    for (const served of started) await wrk(served.url, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS });

    const loadBefore = loadavg()[0] ?? 0;
    const [bareResult, linkResult, fastifyResult] = (await loadInTurns([bare, linkServer, fastify], {
      connections: CONNECTIONS,
      seconds: SECONDS,
      slices: SLICES,
    })) as [TargetLoad, TargetLoad, TargetLoad];
    const ratio = (result: typeof bareResult) => ({
      ratio: Number((result.requests_per_second / bareResult.requests_per_second).toFixed(3)),
      cpu_ratio: Number((result.requests_per_cpu_second / bareResult.requests_per_cpu_second).toFixed(3)),
    });
    return {
      bare_node_http: bareResult,
      warm_link: linkResult,
      bare_fastify: fastifyResult,
      ...ratio(linkResult),
      fastify_ratio: ratio(fastifyResult).ratio,
      load_average_1m: `${loadBefore.toFixed(2)} -> ${loadavg()[0]?.toFixed(2)}`,
    };
  } finally {
    for (const served of started) {
      await served.stop();
      running.delete(served);
    }
  }
}

await main();
