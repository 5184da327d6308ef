// Turns an untrusted operator list into a compiled chain, or says which operator is wrong and why (for 400 invalid_transform).
import { PROTOCOLS, type Protocol } from '../../formats/proxy.js';
import {
  DEDUPE_KEYS,
  MATCH_FIELDS,
  MAX_AFFIX_LENGTH,
  MAX_LIMIT_COUNT,
  MAX_OPERATORS,
  MAX_PATTERN_LENGTH,
  MAX_REPLACEMENT_LENGTH,
  OPERATOR_NAMES,
  SORT_KEYS,
  SORT_ORDERS,
  type Operator,
  type OperatorName,
} from './operators.js';
import { InvalidPatternError, compile, type LinearPattern } from '../../shared/linear-pattern.js';

/** A chain that cannot be stored: `index` is the failing operator's position, null when the list itself is wrong. */
export class TransformError extends Error {
  override readonly name = 'TransformError';
  constructor(
    readonly index: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** An operator with its pattern compiled once, ready for applyTransforms. */
export interface CompiledOperator {
  operator: Operator;
  pattern?: LinearPattern;
}
export type CompiledChain = readonly CompiledOperator[];

const FIELDS: Readonly<Record<OperatorName, readonly string[]>> = {
  include: ['pattern', 'field'],
  exclude: ['pattern', 'field'],
  types: ['keep'],
  rename: ['pattern', 'replace'],
  prefix: ['text'],
  suffix: ['text'],
  flag: [],
  sort: ['by', 'order'],
  dedupe: ['by'],
  drop_info: [],
  limit: ['count'],
};

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const codePoints = (text: string): number => (text.length <= 1 ? text.length : Array.from(text).length);

/** Validates and compiles `input` (a request's `transforms`, or a stored chain); throws TransformError. */
export function compileTransforms(input: unknown): CompiledChain {
  if (!Array.isArray(input)) throw new TransformError(null, 'transforms must be an array of operators');
  if (input.length > MAX_OPERATORS) {
    throw new TransformError(MAX_OPERATORS, `transforms holds ${input.length} operators; at most ${MAX_OPERATORS}`);
  }
  return input.map((item: unknown, index) => compileOne(item, index));
}

/** The chain as it is stored: every default filled in. */
export function validateTransforms(input: unknown): Operator[] {
  return compileTransforms(input).map((compiled) => compiled.operator);
}

function compileOne(item: unknown, index: number): CompiledOperator {
  const fail = (message: string): never => {
    throw new TransformError(index, `operator ${index}: ${message}`);
  };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return fail('must be an object with `op`');
  const fields = item as Record<string, unknown>;
  const op = fields.op;
  if (typeof op !== 'string' || !(OPERATOR_NAMES as readonly string[]).includes(op)) {
    return fail(`\`op\` must be one of ${OPERATOR_NAMES.join(', ')}`);
  }
  const name = op as OperatorName;
  const at = (message: string): never => fail(`(${name}) ${message}`);
  for (const key of Object.keys(fields)) {
    if (key !== 'op' && !FIELDS[name].includes(key)) at(`unknown field \`${key}\``);
  }
  const has = (key: string): boolean => Object.hasOwn(fields, key) && fields[key] !== undefined;

  const text = (key: string, min: number, max: number): string => {
    const value = fields[key];
    if (typeof value !== 'string') return at(`\`${key}\` must be a string`);
    const length = codePoints(value);
    if (length < min) return at(`\`${key}\` must not be empty`);
    if (length > max) return at(`\`${key}\` is ${length} characters; at most ${max}`);
    if (CONTROL.test(value)) return at(`\`${key}\` must not contain control characters`);
    return value;
  };
  const oneOf = <T extends string>(key: string, values: readonly T[], fallback: T): T => {
    if (!has(key)) return fallback;
    const value = fields[key];
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    return at(`\`${key}\` must be one of ${values.join(', ')}`);
  };
  const pattern = (): { pattern: string; compiled: LinearPattern } => {
    const source = text('pattern', 1, MAX_PATTERN_LENGTH);
    try {
      // The length was checked above in code points; the engine's own limit counts code units.
      return { pattern: source, compiled: compile(source, { maxLength: Infinity }) };
    } catch (error) {
      if (error instanceof InvalidPatternError) return at(`\`pattern\` is not a valid pattern: ${error.reason}`);
      throw error;
    }
  };

  switch (name) {
    case 'include':
    case 'exclude': {
      const { pattern: source, compiled } = pattern();
      return {
        operator: { op: name, pattern: source, field: oneOf('field', MATCH_FIELDS, 'name') },
        pattern: compiled,
      };
    }
    case 'rename': {
      const { pattern: source, compiled } = pattern();
      const replace = has('replace') ? text('replace', 0, MAX_REPLACEMENT_LENGTH) : at('`replace` is required');
      return { operator: { op: name, pattern: source, replace }, pattern: compiled };
    }
    case 'types':
      return { operator: { op: name, keep: protocols(fields.keep, at) } };
    case 'prefix':
    case 'suffix':
      return { operator: { op: name, text: text('text', 1, MAX_AFFIX_LENGTH) } };
    case 'sort':
      return { operator: { op: name, by: oneOf('by', SORT_KEYS, 'name'), order: oneOf('order', SORT_ORDERS, 'asc') } };
    case 'dedupe':
      return { operator: { op: name, by: oneOf('by', DEDUPE_KEYS, 'endpoint') } };
    case 'limit': {
      const count = fields.count;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_LIMIT_COUNT) {
        return at(`\`count\` must be an integer from 1 to ${MAX_LIMIT_COUNT}`);
      }
      return { operator: { op: name, count } };
    }
    case 'flag':
    case 'drop_info':
      return { operator: { op: name } };
  }
}

function protocols(value: unknown, at: (message: string) => never): Protocol[] {
  const problem = `\`keep\` must be a non-empty list of distinct protocols (${PROTOCOLS.join(', ')})`;
  if (!Array.isArray(value) || value.length === 0 || value.length > PROTOCOLS.length) return at(problem);
  const keep = new Set<Protocol>();
  for (const entry of value) {
    if (typeof entry !== 'string' || !(PROTOCOLS as readonly string[]).includes(entry)) {
      const shown = typeof entry === 'string' && entry.length <= 32 ? `'${entry}'` : 'an entry';
      return at(`\`keep\` holds ${shown}, which is not one of ${PROTOCOLS.join(', ')}`);
    }
    if (keep.has(entry as Protocol)) return at(problem);
    keep.add(entry as Protocol);
  }
  return [...keep];
}
