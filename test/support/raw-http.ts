// Raw HTTP over a TCP socket, for requests no HTTP client sends as written: absolute-form targets, broken syntax, slow clients.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent before closing (or before `waitMs` ran out). */
  raw: string;
}

/** Opens a connection to 127.0.0.1:port; resolves once connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server sends until it closes the connection or `waitMs` passes. */
export function readAll(socket: Socket, waitMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    const done = () => {
      clearTimeout(timer);
      resolve(data);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
  });
}

export function parseRaw(raw: string): RawResponse {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), raw };
}

/** Sends `request` exactly as given (use \r\n) on a fresh connection and reads the answer until the server closes. */
export async function rawRequest(port: number, request: string, waitMs = 5000): Promise<RawResponse> {
  const socket = await openSocket(port);
  const answer = readAll(socket, waitMs);
  socket.write(request);
  const raw = await answer;
  socket.destroy();
  return parseRaw(raw);
}
