// Validation of a transform chain: defaults filled in, and every bad field named with its operator's index.
import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { compileTransforms, TransformError, validateTransforms } from '../../src/modules/transforms/validate.js';
import { Transforms, TransformsInput } from '../../src/modules/transforms/transforms.schemas.js';

const Ajv = AjvModule.default;

function failure(input: unknown): TransformError {
  try {
    compileTransforms(input);
  } catch (error) {
    if (error instanceof TransformError) return error;
    throw error;
  }
  throw new Error('expected the chain to be refused');
}

/** The index and message of the refusal of `operator` placed after two good operators. */
function refusal(operator: unknown): { index: number | null; message: string } {
  const error = failure([{ op: 'flag' }, { op: 'drop_info' }, operator]);
  return { index: error.index, message: error.message };
}

describe('a good chain', () => {
  it('is stored with every default filled in', () => {
    expect(
      validateTransforms([
        { op: 'include', pattern: 'JP|SG' },
        { op: 'exclude', pattern: '^10\\.', field: 'server' },
        { op: 'types', keep: ['vless', 'trojan'] },
        { op: 'rename', pattern: 'JP-0*(\\d+)', replace: 'Tokyo $1' },
        { op: 'prefix', text: '[A] ' },
        { op: 'suffix', text: ' ✓' },
        { op: 'flag' },
        { op: 'sort' },
        { op: 'sort', by: 'server', order: 'desc' },
        { op: 'dedupe' },
        { op: 'dedupe', by: 'name' },
        { op: 'drop_info' },
        { op: 'limit', count: 5 },
      ]),
    ).toEqual([
      { op: 'include', pattern: 'JP|SG', field: 'name' },
      { op: 'exclude', pattern: '^10\\.', field: 'server' },
      { op: 'types', keep: ['vless', 'trojan'] },
      { op: 'rename', pattern: 'JP-0*(\\d+)', replace: 'Tokyo $1' },
      { op: 'prefix', text: '[A] ' },
      { op: 'suffix', text: ' ✓' },
      { op: 'flag' },
      { op: 'sort', by: 'name', order: 'asc' },
      { op: 'sort', by: 'server', order: 'desc' },
      { op: 'dedupe', by: 'endpoint' },
      { op: 'dedupe', by: 'name' },
      { op: 'drop_info' },
      { op: 'limit', count: 5 },
    ]);
  });

  it('may be empty or hold exactly 32 operators, and a rename may replace with nothing', () => {
    expect(validateTransforms([])).toEqual([]);
    expect(validateTransforms(Array.from({ length: 32 }, () => ({ op: 'flag' })))).toHaveLength(32);
    expect(validateTransforms([{ op: 'rename', pattern: '\\s*\\[.*?\\]', replace: '' }])[0]).toMatchObject({
      replace: '',
    });
  });

  it('accepts a 256-character pattern counted in code points', () => {
    expect(validateTransforms([{ op: 'include', pattern: '日'.repeat(256) }])).toHaveLength(1);
    expect(validateTransforms([{ op: 'include', pattern: '🇯🇵'.repeat(128) }])).toHaveLength(1);
  });

  it('matches the JSON schema the API documents, and the loose request schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const exact = ajv.compile(Transforms);
    const loose = ajv.compile(TransformsInput);
    const stored = validateTransforms([
      { op: 'include', pattern: 'JP' },
      { op: 'types', keep: ['vless'] },
      { op: 'rename', pattern: 'a', replace: '' },
      { op: 'prefix', text: 'x' },
      { op: 'flag' },
      { op: 'sort' },
      { op: 'dedupe' },
      { op: 'drop_info' },
      { op: 'limit', count: 1 },
    ]);
    expect(exact(stored)).toBe(true);
    expect(loose(stored)).toBe(true);
    expect(exact([{ op: 'flag', extra: 1 }])).toBe(false);
    expect(exact(Array.from({ length: 33 }, () => ({ op: 'flag' })))).toBe(false);
  });
});

describe('a bad list', () => {
  it('that is not an array has no index', () => {
    for (const input of [null, {}, 'flag', 3, { 0: { op: 'flag' } }]) {
      expect(failure(input)).toMatchObject({ index: null, message: 'transforms must be an array of operators' });
    }
  });

  it('with more than 32 operators names the first one over', () => {
    const error = failure(Array.from({ length: 33 }, () => ({ op: 'flag' })));
    expect(error.index).toBe(32);
    expect(error.message).toMatch(/33 operators; at most 32/);
  });

  it('reports the first bad operator only', () => {
    const error = failure([{ op: 'flag' }, { op: 'nope' }, { op: 'limit' }]);
    expect(error.index).toBe(1);
  });
});

describe('a bad operator carries its index and says what is wrong', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['not an object', 'flag', /must be an object with `op`/],
    ['null', null, /must be an object/],
    ['an array', [{ op: 'flag' }], /must be an object/],
    ['no op', { pattern: 'x' }, /`op` must be one of include, exclude, types/],
    ['unknown op', { op: 'regex' }, /`op` must be one of/],
    ['op of the wrong type', { op: 7 }, /`op` must be one of/],
    ['op __proto__', { op: '__proto__' }, /`op` must be one of/],
    ['unknown field', { op: 'flag', text: 'x' }, /\(flag\) unknown field `text`/],
    ['field of another operator', { op: 'include', pattern: 'x', replace: 'y' }, /unknown field `replace`/],
    ['include without pattern', { op: 'include' }, /\(include\) `pattern` must be a string/],
    ['include with empty pattern', { op: 'include', pattern: '' }, /`pattern` must not be empty/],
    ['pattern of the wrong type', { op: 'exclude', pattern: 1 }, /`pattern` must be a string/],
    ['pattern too long', { op: 'include', pattern: 'a'.repeat(257) }, /`pattern` is 257 characters; at most 256/],
    [
      'lookahead',
      { op: 'include', pattern: 'JP(?=01)' },
      /`pattern` is not a valid pattern: lookahead and lookbehind are not supported/,
    ],
    [
      'backreference',
      { op: 'rename', pattern: '(a)\\1', replace: '' },
      /not a valid pattern: backreferences are not supported/,
    ],
    ['unbalanced group', { op: 'exclude', pattern: '(JP' }, /not a valid pattern: .*missing closing \)/],
    ['control character in pattern', { op: 'include', pattern: 'a\u0000' }, /control characters/],
    ['bad field', { op: 'include', pattern: 'x', field: 'port' }, /`field` must be one of name, server, type/],
    ['field null', { op: 'include', pattern: 'x', field: null }, /`field` must be one of/],
    ['types without keep', { op: 'types' }, /`keep` must be a non-empty list of distinct protocols/],
    ['types keep empty', { op: 'types', keep: [] }, /non-empty list/],
    ['types keep string', { op: 'types', keep: 'vless' }, /non-empty list/],
    ['types keep alias', { op: 'types', keep: ['ss'] }, /`keep` holds 'ss', which is not one of vless, vmess/],
    ['types keep repeated', { op: 'types', keep: ['vless', 'vless'] }, /distinct protocols/],
    ['types keep number', { op: 'types', keep: [1] }, /holds an entry, which is not one of/],
    ['rename without replace', { op: 'rename', pattern: 'x' }, /\(rename\) `replace` is required/],
    ['rename replace number', { op: 'rename', pattern: 'x', replace: 1 }, /`replace` must be a string/],
    [
      'rename replace too long',
      { op: 'rename', pattern: 'x', replace: 'y'.repeat(257) },
      /257 characters; at most 256/,
    ],
    ['rename replace with newline', { op: 'rename', pattern: 'x', replace: 'a\nb' }, /control characters/],
    ['prefix without text', { op: 'prefix' }, /\(prefix\) `text` must be a string/],
    ['prefix empty', { op: 'prefix', text: '' }, /`text` must not be empty/],
    ['suffix too long', { op: 'suffix', text: 'z'.repeat(65) }, /`text` is 65 characters; at most 64/],
    ['suffix with C1 control', { op: 'suffix', text: 'a\u0085' }, /control characters/],
    ['sort by port', { op: 'sort', by: 'port' }, /`by` must be one of name, type, server/],
    ['sort order', { op: 'sort', order: 'up' }, /`order` must be one of asc, desc/],
    ['dedupe by server', { op: 'dedupe', by: 'server' }, /`by` must be one of endpoint, name/],
    ['limit without count', { op: 'limit' }, /`count` must be an integer from 1 to 1000000/],
    ['limit zero', { op: 'limit', count: 0 }, /`count` must be an integer/],
    ['limit fraction', { op: 'limit', count: 1.5 }, /`count` must be an integer/],
    ['limit string', { op: 'limit', count: '3' }, /`count` must be an integer/],
    ['limit too big', { op: 'limit', count: 1_000_001 }, /`count` must be an integer/],
  ];
  it.each(cases)('%s', (_, operator, message) => {
    const { index, message: said } = refusal(operator);
    expect(index).toBe(2);
    expect(said).toMatch(/^operator 2: /);
    expect(said).toMatch(message);
  });

  it('never echoes a huge value back', () => {
    const { message } = refusal({ op: 'types', keep: ['x'.repeat(100_000)] });
    expect(message.length).toBeLessThan(300);
  });
});
