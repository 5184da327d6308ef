// The transform operators a subscription can store (docs/transforms.md), their defaults and their limits, as data.
import type { Protocol } from '../../formats/proxy.js';

export const MAX_OPERATORS = 32;
/** Patterns are counted in Unicode code points, as the API's JSON schemas count every string. */
export const MAX_PATTERN_LENGTH = 256;
export const MAX_AFFIX_LENGTH = 64;
export const MAX_REPLACEMENT_LENGTH = 256;
/** A name an operator writes is cut to this many code points (the API's limit on a comment). */
export const MAX_NAME_LENGTH = 256;
export const MAX_LIMIT_COUNT = 1_000_000;

export const OPERATOR_NAMES = [
  'include',
  'exclude',
  'types',
  'rename',
  'prefix',
  'suffix',
  'flag',
  'sort',
  'dedupe',
  'drop_info',
  'limit',
] as const;
export type OperatorName = (typeof OPERATOR_NAMES)[number];

export const MATCH_FIELDS = ['name', 'server', 'type'] as const;
export type MatchField = (typeof MATCH_FIELDS)[number];
export const SORT_KEYS = ['name', 'type', 'server'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export const DEDUPE_KEYS = ['endpoint', 'name'] as const;

/** One operator as stored and answered: validation fills every default in, so a stored chain says what it does. */
export type Operator =
  | { op: 'include' | 'exclude'; pattern: string; field: MatchField }
  | { op: 'types'; keep: Protocol[] }
  | { op: 'rename'; pattern: string; replace: string }
  | { op: 'prefix' | 'suffix'; text: string }
  | { op: 'flag' }
  | { op: 'sort'; by: (typeof SORT_KEYS)[number]; order: (typeof SORT_ORDERS)[number] }
  | { op: 'dedupe'; by: (typeof DEDUPE_KEYS)[number] }
  | { op: 'drop_info' }
  | { op: 'limit'; count: number };
