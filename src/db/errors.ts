// Recognises constraint violations the same way on SQLite and PostgreSQL, so services never look at driver codes.

interface DriverError {
  code?: unknown;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '25006',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_FULL',
]);
const UNAVAILABLE_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|terminating connection/i;

/** True when the database could not be reached or refused writes (an outage), as opposed to a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as DriverError).code ?? '');
  if (
    UNAVAILABLE_CODES.has(code) ||
    code.startsWith('08') ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_READONLY')
  ) {
    return true;
  }
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.test(error.message);
}
