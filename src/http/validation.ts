// Request validation: strict types for JSON bodies, string coercion only for path and query parameters.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its callable sits on `default`.
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, removeAdditional: false, strict: false });
  addFormats.default(ajv);
  return ajv;
}

export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const bodies = createAjv(false);
  const parameters = createAjv(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : parameters).compile(schema as object);
}
