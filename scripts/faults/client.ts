// One HTTP call of the fault run that never throws: its status, error code (HTTP or socket), body and duration.
import { Agent, request } from 'undici';

/** Longer than anything the service may take on purpose (FETCH_TIMEOUT_MS, a 5 s pool wait), so a timeout is news. */
const TIMEOUT_MS = 20_000;

const agent = new Agent({ headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, connect: { timeout: 5_000 } });

export interface Answer {
  ok: boolean;
  status: number;
  /** "201", "503 database_unavailable", "ECONNREFUSED", ...: what the load tallies. */
  code: string;
  body: string;
  ms: number;
  /** The request surely never reached the service (connection refused), so a write cannot have happened. */
  neverSent: boolean;
}

export interface CallOptions {
  method?: string;
  token?: string;
  json?: unknown;
}

export async function call(origin: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const started = performance.now();
  const headers: Record<string, string> = {};
  if (options.token) headers['api-token'] = options.token;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await request(origin + path, {
      dispatcher: agent,
      method: (options.method ?? 'GET') as 'GET',
      headers,
      body: options.json === undefined ? null : JSON.stringify(options.json),
    });
    const body = await response.body.text();
    const status = response.statusCode;
    const ok = status >= 200 && status < 300;
    return {
      ok,
      status,
      code: ok ? String(status) : `${status} ${errorCode(body)}`,
      body,
      ms: elapsed(started),
      neverSent: false,
    };
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).name;
    return { ok: false, status: 0, code, body: '', ms: elapsed(started), neverSent: code === 'ECONNREFUSED' };
  }
}

export function json<T>(answer: Answer): T {
  return JSON.parse(answer.body) as T;
}

export async function closeClient(): Promise<void> {
  await agent.close();
}

function errorCode(body: string): string {
  try {
    return (JSON.parse(body) as { error?: string }).error ?? 'no_error_code';
  } catch {
    return 'not_json';
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
