// How the HTTP server treats clients before any route runs: request ids, a deadline for slow clients, and JSON answers to requests too broken to route.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { errorBody, errors, type AppError } from './errors.js';

/** A client's X-Request-Id is kept only in this form (docs/security.md, Request ids): it ends up in logs and response headers. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * REQUEST_TIMEOUT_MS bounds the time to receive a request's headers and body; Node closes the connection when it
 * runs out (with 408 below). Node checks its connections every `connectionsCheckingInterval`, so that interval is a
 * fraction of the deadline, else a short deadline would be enforced up to 30 s late.
 */
export function connectionOptions(
  requestTimeoutMs: number,
): Pick<FastifyServerOptions, 'requestTimeout' | 'clientErrorHandler'> & { http: ServerOptions } {
  const http: ServerOptions = {
    requestTimeout: requestTimeoutMs,
    headersTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
  };
  return { requestTimeout: requestTimeoutMs, http, clientErrorHandler: answerClientError };
}

/** Node's parser gave up on the connection: answer in the error envelope when the socket can still take it, then close. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.end(rawResponse(clientErrorFor(error.code)));
  socket.destroy();
}

function clientErrorFor(code: string | undefined): AppError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return errors.requestTimeout();
  if (code === 'HPE_HEADER_OVERFLOW') return errors.headersTooLarge();
  return errors.badRequest();
}

function rawResponse(error: AppError): string {
  const body = JSON.stringify(errorBody(error));
  return (
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ''}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}
