// Requests that reach the app while it closes are answered 503 in the error envelope, not with Fastify's own body.
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service.js';
import { openTestDatabase, startTestApp, testConfig } from '../support/harness.js';
import { startUpstream } from '../support/upstream-server.js';

/** Sends one raw HTTP/1.1 request on its own connection; resolves with everything received until the server closes it. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(request);
  });
}

it('answers 503 shutting_down in the envelope while in-flight requests finish', async () => {
  const database = await openTestDatabase('sqlite');
  const upstream = await startUpstream();
  let answer = () => {};
  const slowUrl = upstream.add((_req, res) => {
    answer = () => res.writeHead(200).end('trojan://pw@late.example.com:443#Late');
  });
  const { app, context } = await startTestApp(testConfig(), database.handle);
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const { api_token: apiToken } = await createUser(database.handle.db, 990_001);
    const body = JSON.stringify({ name: 'late', sources: [slowUrl] });
    const inFlight = rawRequest(
      port,
      `POST /api/v1/subs HTTP/1.1\r\nHost: x\r\nApi-Token: ${apiToken}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    while (upstream.hits(slowUrl) === 0) await new Promise((resolve) => setTimeout(resolve, 10));

    context.beginShutdown(); // what SIGTERM does first (src/main.ts)
    const during = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(during).toMatch(/^HTTP\/1\.1 503/);
    expect(during).toContain('{"error":"shutting_down","message":');
    expect(during.toLowerCase()).toContain('retry-after: 1');

    const closed = app.close();
    answer();
    const finished = await inFlight;
    expect(finished).toMatch(/^HTTP\/1\.1 201/);
    expect(finished.toLowerCase()).toContain('connection: close');
    await closed;
  } finally {
    await upstream.close();
    await database.close();
  }
});
