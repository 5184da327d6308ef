// Schemas shared by every module: the error envelope and small reusable field types.
import { Type } from 'typebox';

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
 * included (DESIGN 13): no client shows them, and they make one name look like another. NUL and unpaired
 * surrogates are refused in every request string by the validator (see validation.ts).
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

/** The same for fields trimmed before use (names, comments): whitespace such as tab or newline may only surround the text. */
export const TRIMMED_TEXT_PATTERN = '^\\s*[^\\u0000-\\u001F\\u007F-\\u009F]*\\s*$';

export const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/** Response map entries for the error statuses a route can answer. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}

export const NoContent = Type.Null({ description: 'Empty body.' });
