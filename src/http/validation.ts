// Request validation: strict types for JSON bodies, string coercion only for path and query parameters, and one rule for every string.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { errors, type AppError } from './errors.js';

// ajv-formats is CommonJS; under NodeNext its callable sits on `default`.
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

/**
 * NUL (PostgreSQL text cannot store it) or a UTF-16 surrogate without its partner (not Unicode: it would be stored
 * as U+FFFD and not round-trip). No request string may hold either (docs/security.md, Strings).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * JSON-pointer paths of every string (values and keys) in `data` that holds an unstorable character. Iterative, so
 * a body nested a hundred thousand levels deep cannot overflow the stack.
 */
export function unstorableStrings(data: unknown): string[] {
  if (isFlatAndStorable(data)) return [];
  const found: string[] = [];
  const pending: Array<[unknown, string]> = [[data, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) found.push(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([item, `${path}/${i}`]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (UNSTORABLE.test(key)) found.push(`${path}/${key}`);
        else pending.push([item, `${path}/${key}`]);
      }
    }
  }
  return found.sort();
}

/** The common case of path and query parameters, checked without building paths: only clean strings, one level. */
function isFlatAndStorable(data: unknown): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  for (const key of Object.keys(data)) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value !== 'string' || UNSTORABLE.test(key) || UNSTORABLE.test(value)) return false;
  }
  return true;
}

/**
 * A path parameter that holds such a character cannot name anything that exists: 404. A subscription token answers
 * like any other malformed token (docs/api.md, Identifiers and tokens).
 */
function unstorableParam(name: string): AppError {
  return name === 'token' ? errors.subscriptionNotFound() : errors.notFound();
}

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, removeAdditional: false, strict: false });
  addFormats.default(ajv);
  return ajv;
}

type Validate = ((data: unknown, context?: object) => boolean | { error: Error }) & {
  errors?: ErrorObject[] | null;
  /** Fastify hands Ajv functions (recognised by this) their parent, so coercion can replace a root value. */
  schemaEnv?: unknown;
};

export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const bodies = createAjv(false);
  const parameters = createAjv(true);
  return ({ schema, httpPart }) => {
    const compiled = (httpPart === 'body' ? bodies : parameters).compile(schema as object);
    if (httpPart === 'headers') return compiled;
    const validate: Validate = (data, context) => {
      const bad = unstorableStrings(data);
      if (bad.length > 0 && httpPart === 'params') return { error: unstorableParam(bad[0]?.split('/')[1] ?? '') };
      if (bad.length > 0) {
        validate.errors = bad.map((instancePath) => ({
          instancePath,
          schemaPath: '#/unstorable',
          keyword: 'unstorable',
          params: {},
          message: 'must not contain NUL or an unpaired surrogate',
        }));
        return false;
      }
      const valid = compiled(data, context as Parameters<typeof compiled>[1]);
      validate.errors = compiled.errors ?? null;
      return valid;
    };
    validate.schemaEnv = compiled.schemaEnv;
    return validate;
  };
}
