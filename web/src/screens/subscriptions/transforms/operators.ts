// The chain as the editor holds it: operators typed from the generated schema, each new one with every default filled
// in (as the server stores them, so an unchanged chain compares equal), and the one-click recipes of docs/transforms.md.
import type { Subscription } from '../queries';

export type Operator = Subscription['transforms'][number];
export type OperatorKind = Operator['op'];

/** docs/transforms.md: at most 32 operators. */
export const MAX_OPERATORS = 32;

const DEFAULTS: { [K in OperatorKind]: Extract<Operator, { op: K }> } = {
  include: { op: 'include', pattern: '', field: 'name' },
  exclude: { op: 'exclude', pattern: '', field: 'name' },
  types: { op: 'types', keep: ['vless', 'vmess', 'trojan'] },
  rename: { op: 'rename', pattern: '', replace: '' },
  prefix: { op: 'prefix', text: '' },
  suffix: { op: 'suffix', text: '' },
  flag: { op: 'flag' },
  sort: { op: 'sort', by: 'name', order: 'asc' },
  dedupe: { op: 'dedupe', by: 'endpoint' },
  drop_info: { op: 'drop_info' },
  limit: { op: 'limit', count: 50 },
};

export const KINDS = Object.keys(DEFAULTS) as OperatorKind[];

export function newOperator(kind: OperatorKind): Operator {
  return structuredClone(DEFAULTS[kind]);
}

export const RECIPES = {
  dropInfo: [DEFAULTS.drop_info],
  flag: [DEFAULTS.flag],
  dedupe: [DEFAULTS.dedupe],
  sort: [DEFAULTS.sort],
} as const satisfies Record<string, Operator[]>;

/** The same chain whatever the order of each operator's keys. */
export function sameChain(a: readonly Operator[], b: readonly Operator[]): boolean {
  const canonical = (chain: readonly Operator[]) =>
    JSON.stringify(chain.map((operator) => Object.entries(operator).sort(([x], [y]) => x.localeCompare(y))));
  return canonical(a) === canonical(b);
}
