// docs/security.md (Slow and broken clients): slow clients are cut off after REQUEST_TIMEOUT_MS, and requests too broken to route still get the JSON envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createUser } from '../../src/modules/users/users.service.js';
import { openTestDatabase, startTestApp, testConfig, type TestDatabase } from '../support/harness.js';
import { openSocket, parseRaw, rawRequest, readAll } from '../support/raw-http.js';
import { expectError } from '../support/expect.js';
import { freshUserId } from '../support/factories.js';

const TIMEOUT_MS = 600;

describe('edge: slow and broken clients (listening server)', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    ({ app } = await startTestApp(testConfig({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) }), database.handle));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('closes slowloris connections (headers dribbled out) with 408 request_timeout', async () => {
    // The attack: many connections that each send a header line now and then, never finishing, tie up the server.
    const sockets = await Promise.all(Array.from({ length: 20 }, () => openSocket(port)));
    const answers = sockets.map((socket) => readAll(socket, 10_000));
    const started = Date.now();
    for (const socket of sockets) socket.write('GET /healthz HTTP/1.1\r\nHost: sub.test\r\n');
    const drip = setInterval(() => {
      for (const socket of sockets) if (!socket.destroyed) socket.write(`X-Drip-${Date.now()}: 1\r\n`);
    }, 100);
    try {
      const raws = await Promise.all(answers);
      const elapsed = Date.now() - started;
      for (const raw of raws) {
        const res = parseRaw(raw);
        expect(expectError(res, 408, 'request_timeout').details).toBeNull();
      }
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(sockets.every((socket) => socket.destroyed || socket.readableEnded)).toBe(true);
    } finally {
      clearInterval(drip);
      for (const socket of sockets) socket.destroy();
    }
  });

  it('closes a connection whose body never finishes arriving', async () => {
    const socket = await openSocket(port);
    const answer = readAll(socket, 10_000);
    const user = await createUser(database.handle.db, freshUserId());
    const head = `POST /api/v1/subs HTTP/1.1\r\nHost: sub.test\r\nAPI-Token: ${user.api_token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    socket.write(`${head}{"na`);
    const res = parseRaw(await answer);
    socket.destroy();
    expectError(res, 408, 'request_timeout');
  });

  it('answers a malformed request with 400 bad_request in the envelope', async () => {
    const res = await rawRequest(port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(expectError(res, 400, 'bad_request').details).toBeNull();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers oversized headers with 431 headers_too_large in the envelope', async () => {
    const res = await rawRequest(
      port,
      `GET /healthz HTTP/1.1\r\nHost: sub.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectError(res, 431, 'headers_too_large');
  });

  it('still serves a client that sends its request in time', async () => {
    const res = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: sub.test\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
  });
});
