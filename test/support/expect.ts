// One strict check of the error envelope that every non-2xx answer carries (docs/api.md "Errors"), whatever the
// test holds: an app.inject response, a raw socket answer, or the body a CLI printed.
import { expect } from 'vitest';
import { ERROR_CATALOG, type ErrorCode } from '../../src/http/error-catalog.js';

export interface ErrorEnvelope {
  error: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
  /** Only on a 429: the seconds in Retry-After (DESIGN.md section 17). */
  retry_after?: number;
}

/** What app.inject answers (statusCode) and what test/support/raw-http.ts reads off a socket (status). */
export type TestResponse =
  | { statusCode: number; headers: Record<string, unknown>; body: string }
  | { status: number; headers: Record<string, unknown>; body: string };

/**
 * Asserts the status, a JSON content type and the exact `{error, message, details}` envelope with `code` (which the
 * catalog must give that status; a 429 adds `retry_after`, equal to Retry-After); returns the envelope. `label` names the case in failure messages.
 */
export function expectError(response: TestResponse, status: number, code: ErrorCode, label?: string): ErrorEnvelope {
  const actual = 'statusCode' in response ? response.statusCode : response.status;
  expect(actual, label ?? response.body).toBe(status);
  expect(ERROR_CATALOG[code], `catalog status of ${code}`).toBe(status);
  expect(String(response.headers['content-type']), label).toMatch(/^application\/json/);
  const envelope = expectEnvelope(JSON.parse(response.body), code, label);
  if (status === 429) expect(String(response.headers['retry-after']), label).toBe(String(envelope.retry_after));
  return envelope;
}

/** The envelope check alone, for a body that did not come with an HTTP status (such as `subweave admin` stderr). */
export function expectEnvelope(body: unknown, code: ErrorCode, label?: string): ErrorEnvelope {
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), label).toBe(true);
  const envelope = body as ErrorEnvelope;
  const rateLimited = ERROR_CATALOG[code] === 429;
  const keys = rateLimited ? ['details', 'error', 'message', 'retry_after'] : ['details', 'error', 'message'];
  expect(Object.keys(envelope).sort(), label).toEqual(keys);
  if (rateLimited) expect(Number.isInteger(envelope.retry_after) && envelope.retry_after! >= 0, label).toBe(true);
  expect(envelope.error, label).toBe(code);
  expect(typeof envelope.message, label).toBe('string');
  expect(envelope.message.trim().length, label).toBeGreaterThan(0);
  const details = envelope.details;
  expect(details === null || (typeof details === 'object' && !Array.isArray(details)), label).toBe(true);
  return envelope;
}

/** Asserts the status (the body is the failure message) and hands the response back. */
export function expectStatus<R extends { statusCode: number; body: string }>(response: R, status: number): R {
  expect(response.statusCode, response.body).toBe(status);
  return response;
}
