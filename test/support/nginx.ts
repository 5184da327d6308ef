// Runs Debian's nginx as a foreground process of the test with deploy/nginx/subweave.conf, moved onto loopback ports.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../scripts/support/private-services.js';

export const NGINX_PATH = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';
export const DEPLOY_CONF = new URL('../../deploy/nginx/subweave.conf', import.meta.url);

/** The address and port the documented upstream block names; the test points it at the app instead. */
const DOCUMENTED_UPSTREAM = '127.0.0.1:8080';

export function nginxInstalled(): boolean {
  return existsSync(NGINX_PATH);
}

/**
 * The top-level statements of an nginx file: blocks (`upstream x { ... }`, `server { ... }`, `map ... { ... }`) and
 * directives (`log_format ...;`), comments removed. Braces, `;` and `#` inside quoted strings are text.
 */
export function topLevelStatements(text: string): string[] {
  const statements: string[] = [];
  let code = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      code += c;
      if (c === '\\') code += text[++i] ?? '';
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
      continue;
    }
    code += c;
    if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth < 0) throw new Error('unbalanced braces in the nginx file');
    if (depth === 0 && (c === '}' || c === ';')) {
      statements.push(code.trim());
      code = '';
    }
  }
  if (depth !== 0 || quote || code.trim() !== '') throw new Error('unterminated statement in the nginx file');
  return statements;
}

function onlyBlock(blocks: string[], what: string, test: (block: string) => boolean): string {
  const found = blocks.filter(test);
  if (found.length !== 1) throw new Error(`expected one ${what} in the nginx file, found ${found.length}`);
  return found[0] as string;
}

/**
 * The documented site made runnable in a test: the maps and log formats as they are; the HTTPS server block,
 * unchanged except that it listens on 127.0.0.1:<listenPort> in plain HTTP (listen and ssl_* lines and its error log
 * dropped) and writes its access log, in the documented format, to <logDir>/access.log; the upstream points to
 * 127.0.0.1:<appPort>. The port-80 redirect server is left out (tests never bind port 80).
 */
export function testSite(documented: string, listenPort: number, appPort: number, logDir: string): string {
  const blocks = topLevelStatements(documented);
  const kept = blocks.filter((b) => /^(map|log_format)\s/.test(b));
  const upstream = onlyBlock(blocks, 'upstream block', (b) => /^upstream\s/.test(b));
  const proxy = onlyBlock(
    blocks,
    'server block with proxy_pass',
    (b) => /^server\s*\{/.test(b) && /proxy_pass/.test(b),
  );
  onlyBlock(blocks, 'redirect server block', (b) => /^server\s*\{/.test(b) && /return\s+301/.test(b));
  if (!upstream.includes(`server ${DOCUMENTED_UPSTREAM}`)) {
    throw new Error(`the upstream block no longer names ${DOCUMENTED_UPSTREAM}`);
  }
  const accessLog = /^\s*access_log\s+\S+(\s[^;]*)?;\s*$/m.exec(proxy);
  if (!accessLog) throw new Error('the HTTPS server block has no access_log');
  const server = proxy
    .replace(/^\s*(listen|ssl_\w+|error_log)\s[^;]*;\s*$/gm, '')
    .replace(accessLog[0], `\n    access_log ${logDir}/access.log${accessLog[1] ?? ''};`)
    .replace(/^server\s*\{/, `server {\n    listen 127.0.0.1:${listenPort};`);
  const proxied = upstream.replace(`server ${DOCUMENTED_UPSTREAM}`, `server 127.0.0.1:${appPort}`);
  return `${[...kept, proxied, server].join('\n\n')}\n`;
}

/** The main file: pid, logs and every temporary path inside `dir`, one worker, and the site. */
function mainConfig(dir: string, site: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events {
    worker_connections 128;
}
http {
    access_log off;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;

${site}
}
`;
}

export interface RunningNginx {
  port: number;
  /** The generated site (for failure messages). */
  site: string;
  errorLog(): string;
  /** What the site's access_log wrote, in its documented format. */
  accessLog(): string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground (`daemon off`) in front of 127.0.0.1:<appPort>; resolves once it accepts. */
export async function startNginx(appPort: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'subweave-nginx-'));
  // As root, nginx's workers run as an unprivileged user and must reach the temporary paths inside `dir`.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const site = testSite(readFileSync(DEPLOY_CONF, 'utf8'), port, appPort, dir);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, mainConfig(dir, site));
  const args = ['-p', `${dir}/`, '-c', conf];
  const readLog = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  const errorLog = () => readLog('error.log');
  await promisify(execFile)(NGINX_PATH, ['-t', '-q', ...args]).catch((error: { stderr?: string }) => {
    throw new Error(`nginx -t refused the generated config:\n${error.stderr ?? ''}\n${site}`);
  });

  const child = spawn(NGINX_PATH, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (!running || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start: ${stderr}\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    site,
    errorLog,
    accessLog: () => readLog('access.log'),
    stop: async () => {
      // SIGTERM is nginx's fast shutdown: the master stops its worker and exits.
      if (running) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** One request over a fresh connection from `from` (a loopback address such as 127.0.0.2) to nginx on `port`. */
export function sendFrom(
  from: string,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<ProxiedResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: { host: 'sub.test', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: <T>() => JSON.parse(text) as T,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
