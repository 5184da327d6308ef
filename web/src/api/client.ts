// The one API client: openapi-fetch typed by schema.d.ts (generated, `npm run gen:api`), sending the session cookie.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });

/** A non-2xx answer in the server's error envelope `{error, message, details}` (docs/api.md, Errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The envelope's `details` (validation issues, limits, ids), or null. */
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer, or an ApiError carrying the envelope's code and message. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const envelope = (error ?? {}) as { error?: unknown; message?: unknown; details?: unknown };
  throw new ApiError(
    response.status,
    typeof envelope.error === 'string' ? envelope.error : 'http_error',
    typeof envelope.message === 'string' ? envelope.message : response.statusText,
    typeof envelope.details === 'object' ? (envelope.details as Record<string, unknown> | null) : null,
  );
}

export const isUnauthorized = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
