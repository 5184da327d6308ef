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

export const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/** Response map entries for the error statuses a route can answer. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}

export const NoContent = Type.Null({ description: 'Empty body.' });
