// The JSON schemas of a transform chain: the exact operator shapes for responses and the API docs, a loose list for requests.
import { Type } from 'typebox';
import { PROTOCOLS } from '../../formats/proxy.js';
import { OneOf } from '../../http/schemas.js';
import {
  DEDUPE_KEYS,
  MATCH_FIELDS,
  MAX_AFFIX_LENGTH,
  MAX_LIMIT_COUNT,
  MAX_OPERATORS,
  MAX_PATTERN_LENGTH,
  MAX_REPLACEMENT_LENGTH,
  SORT_KEYS,
  SORT_ORDERS,
} from './operators.js';

const Pattern = Type.String({
  minLength: 1,
  maxLength: MAX_PATTERN_LENGTH,
  description: 'RE2 syntax (no backreferences or lookaround), at most 256 characters; `(?i)` ignores case.',
});
const operator = <O extends string, P extends Record<string, Parameters<typeof Type.Object>[0][string]>>(
  op: O,
  properties: P,
  description: string,
) => Type.Object({ op: Type.Literal(op), ...properties }, { additionalProperties: false, description });

const Match = (op: 'include' | 'exclude', verb: string) =>
  operator(
    op,
    {
      pattern: Pattern,
      field: Type.Optional(OneOf(MATCH_FIELDS, { description: 'What is matched (default `name`).' })),
    },
    `${verb} the servers whose field matches the pattern.`,
  );

const Affix = (op: 'prefix' | 'suffix') =>
  operator(
    op,
    { text: Type.String({ minLength: 1, maxLength: MAX_AFFIX_LENGTH, description: 'At most 64 characters.' }) },
    `Adds the text ${op === 'prefix' ? 'before' : 'after'} every name.`,
  );

/** One operator, as stored and answered (validation fills in every default). */
export const TransformOperator = Type.Union(
  [
    Match('include', 'Keeps only'),
    Match('exclude', 'Drops'),
    operator(
      'types',
      {
        keep: Type.Array(OneOf(PROTOCOLS), {
          minItems: 1,
          maxItems: PROTOCOLS.length,
          uniqueItems: true,
          description: 'Protocols to keep.',
        }),
      },
      'Keeps only servers of these protocols.',
    ),
    operator(
      'rename',
      {
        pattern: Pattern,
        replace: Type.String({
          maxLength: MAX_REPLACEMENT_LENGTH,
          description: 'Replaces every match; `$1`..`$9` are the groups. At most 256 characters.',
        }),
      },
      'Rewrites names; a name is cut to 256 characters and an emptied one becomes `<protocol> <server>:<port>`.',
    ),
    Affix('prefix'),
    Affix('suffix'),
    operator('flag', {}, 'Puts the flag of the country guessed from the name in front, unless it has one.'),
    operator(
      'sort',
      {
        by: Type.Optional(OneOf(SORT_KEYS, { description: 'Sort key (default `name`).' })),
        order: Type.Optional(OneOf(SORT_ORDERS, { description: 'Default `asc`.' })),
      },
      'Sorts servers; numbers in names sort by value ("JP 2" before "JP 10"); ties keep their order.',
    ),
    operator(
      'dedupe',
      {
        by: Type.Optional(
          OneOf(DEDUPE_KEYS, { description: 'Default `endpoint`: protocol, server, port, credentials.' }),
        ),
      },
      'Keeps the first of servers with the same key.',
    ),
    operator('drop_info', {}, 'Drops pseudo-servers whose name announces expiry, traffic left, a reset or a website.'),
    operator(
      'limit',
      { count: Type.Integer({ minimum: 1, maximum: MAX_LIMIT_COUNT, description: 'Servers to keep.' }) },
      'Keeps the first `count` servers.',
    ),
  ],
  { description: 'One transform operator (docs/transforms.md).' },
);

const LIST_DESCRIPTION = 'Operators applied in order to the resolved servers, at most 32.';

export const Transforms = Type.Array(TransformOperator, { maxItems: MAX_OPERATORS, description: LIST_DESCRIPTION });

/**
 * The request form: a list of anything, so that compileTransforms, not the generic validator, judges each operator
 * and a bad one is answered `400 invalid_transform` with `details.index`.
 */
export const TransformsInput = Type.Array(
  Type.Unknown({ description: 'An operator object: `op` and its fields (see the `Transforms` schema).' }),
  { description: `${LIST_DESCRIPTION} Each is checked in order; the first bad one is named by its index.` },
);
