// The error catalog, its factories and the documented error table say the same thing, and cover every documented code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CATALOG, errors, type ErrorCode } from '../../src/http/error-catalog.js';

/** The codes docs/api.md (Errors) promises, grouped by the rules that answer them. */
const CONTRACT_CODES = [
  // any endpoint
  'validation_failed',
  'invalid_json',
  'invalid_source',
  'invalid_url',
  'circular_reference',
  'nesting_too_deep',
  'no_update_fields',
  'comment_not_applicable',
  'missing_token',
  'invalid_token',
  'missing_signature',
  'invalid_signature',
  'signature_expired',
  'replayed_request',
  'invalid_invite',
  'account_disabled',
  'ip_not_allowed',
  'ip_banned',
  'forbidden',
  'managed_by_provider',
  'connection_not_approved',
  'subscription_limit_reached',
  'subscription_not_found',
  'source_not_found',
  'config_not_found',
  'user_not_found',
  'provider_not_found',
  'connection_not_found',
  'name_exists',
  'user_exists',
  'connection_exists',
  'connection_not_pending',
  'provider_limit_reached',
  'too_many_sources',
  'payload_too_large',
  'rate_limited',
  'admin_disabled',
  'not_found',
  'method_not_allowed',
  'internal_error',
  // the hardened edge (docs/security.md)
  'invalid_forwarded_for',
  'unexpected_body',
  'bad_request',
  'headers_too_large',
  // a failing dependency (docs/reliability.md)
  'database_unavailable',
  // stored patterns and templates
  'invalid_pattern',
  'invalid_template',
  // transforms (docs/transforms.md)
  'invalid_transform',
];

/** Arguments for the factories that need real ones; every other factory is called without arguments. */
const SAMPLE_ARGUMENTS: Record<string, unknown[][]> = {
  validation: [['The request is invalid.', [{ path: 'body.name', message: 'is required' }]]],
  invalidSource: [['Not a source.', { index: 0 }]],
  invalidUrl: [['Not a public URL.', { index: 0 }]],
  noUpdateFields: [[['name', 'description']]],
  methodNotAllowed: [['DELETE', ['GET', 'POST']]],
  providerExists: [['provider_name'], ['owner_id']],
  invalidPattern: [[0, 'rule', '(a)\\1', 'backreferences are not supported']],
  invalidTransform: [[2, 'operator 2: (limit) `count` is required']],
  invalidTemplate: [['sing-box', 'it nests deeper than 32 levels']],
};

function documentedCodes(): Map<string, number> {
  const table = new Map<string, number>();
  for (const line of readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').split('\n')) {
    const row = /^\| (\d{3}) +\| `([a-z_]+)` +\|/.exec(line);
    if (row) table.set(row[2] as string, Number(row[1]));
  }
  return table;
}

describe('error catalog', () => {
  it('holds every code the contract names', () => {
    const missing = CONTRACT_CODES.filter((code) => !(code in ERROR_CATALOG));
    expect(missing).toEqual([]);
  });

  it('matches the error table of docs/api.md, code for code and status for status', () => {
    expect(Object.fromEntries(documentedCodes())).toEqual({ ...ERROR_CATALOG });
  });

  it('has a factory for every code, and every factory answers with its catalogued status', () => {
    const produced = new Set<ErrorCode>();
    for (const [name, factory] of Object.entries(errors)) {
      for (const args of SAMPLE_ARGUMENTS[name] ?? [[]]) {
        const error = (factory as (...a: unknown[]) => AppError)(...args);
        expect(error, name).toBeInstanceOf(AppError);
        expect(error.statusCode, name).toBe(ERROR_CATALOG[error.code]);
        expect(error.message.length, name).toBeGreaterThan(0);
        produced.add(error.code);
      }
    }
    expect(Object.keys(ERROR_CATALOG).filter((code) => !produced.has(code as ErrorCode))).toEqual([]);
  });
});
