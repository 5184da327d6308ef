// Schemas shared by every module: the error envelope and small reusable field types.
import { Type, type TLiteral, type TSchemaOptions, type TUnion } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Stable snake_case error code, e.g. `validation_failed`.' }),
    message: Type.String({ description: 'Human-readable explanation.' }),
    details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: 'Extra machine-readable details (field issues, limits, ids), or null.',
    }),
  },
  { description: 'Envelope of every non-2xx response.' },
);

/**
 * Names, descriptions, comments, provider and admin fields refuse every C0 and C1 control character, tab and DEL
 * included (docs/security.md, Strings): no client shows them, and they make one name look like another. NUL and unpaired
 * surrogates are refused in every request string by the validator (see validation.ts).
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

/** The same for fields trimmed before use (names, comments): whitespace such as tab or newline may only surround the text. */
export const TRIMMED_TEXT_PATTERN = '^\\s*[^\\u0000-\\u001F\\u007F-\\u009F]*\\s*$';

export const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/** A user id (integer > 0 within JavaScript's safe range), described for where it appears. */
export const UserIdField = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

/**
 * One of `values`, as a union of string literals: a domain's `as const` list types both this schema and its
 * database column (db/types.ts). Typed as one literal of the whole union, which is what the list means.
 */
export function OneOf<T extends string>(values: readonly T[], options?: TSchemaOptions): TUnion<[TLiteral<T>]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as TUnion<[TLiteral<T>]>;
}

/** The envelope of a 429: the seconds to wait also sit at the top level, for clients of the original v2hub API. */
export const RateLimitedResponse = Type.Object(
  {
    ...ErrorResponse.properties,
    retry_after: Type.Integer({
      minimum: 0,
      description: 'Seconds to wait before retrying; the same value as the Retry-After header.',
    }),
  },
  { description: 'Envelope of a 429 response: the error envelope plus `retry_after`.' },
);

/** Response map entries for the error statuses a route can answer. */
export function errorResponses(
  ...statuses: number[]
): Record<number, typeof ErrorResponse | typeof RateLimitedResponse> {
  return Object.fromEntries(statuses.map((status) => [status, status === 429 ? RateLimitedResponse : ErrorResponse]));
}

export const NoContent = Type.Null({ description: 'Empty body.' });
