// A subscription's name: trimmed, 1-64 characters, and unique in its scope (the database has the last word).
import { isUniqueViolation } from '../../db/errors.js';
import { errors } from '../../http/errors.js';

export const MAX_NAME_LENGTH = 64;

export function validName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length === 0 || length > MAX_NAME_LENGTH) {
    throw errors.validation('The name must be 1-64 characters after trimming.', [
      { path: 'body.name', message: `must be 1-${MAX_NAME_LENGTH} characters after trimming` },
    ]);
  }
  return name;
}

/** Turns the unique-index violation of a concurrent write into the same answer as the check before it. */
export function rethrowNameExists(name: string) {
  return (error: unknown): never => {
    if (isUniqueViolation(error)) throw errors.nameExists(name);
    throw error;
  };
}
