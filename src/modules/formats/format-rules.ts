// Decides which format (or the page, or a refusal) a public-link request gets: path, query, the ordered rules, base64.
import { FORMATS, FORMAT_ALIASES, formatNamed, type Format, type FormatVariant } from '../../formats/formats.js';
import { errors, type Issue } from '../../http/errors.js';
import { compile, InvalidPatternError, type LinearPattern } from '../../shared/linear-pattern.js';

export const RULE_MATCHES = ['contains', 'prefix', 'equals', 'regex'] as const;
export type RuleMatch = (typeof RULE_MATCHES)[number];

/** What a rule answers: a format, the HTML page, or 403 client_blocked. */
export const RULE_RESULTS = [...FORMATS, 'page', 'block'] as const;
export type RuleResult = (typeof RULE_RESULTS)[number];

export interface FormatRule {
  id: string;
  /** A request header name, lower-case. */
  header: string;
  match: RuleMatch;
  value: string;
  case_sensitive: boolean;
  enabled: boolean;
  result: RuleResult;
}

export const MAX_RULES = 100;
export const MAX_RULE_VALUE_LENGTH = 256;
export const RULE_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';
/** A header name is an HTTP token (RFC 9110 `tchar`). */
export const RULE_HEADER_PATTERN = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$";
const RULE_HEADER = new RegExp(RULE_HEADER_PATTERN);
/** How much of a header a rule reads, so no request makes matching cost more than this. */
export const MAX_HEADER_READ = 512;
/** Names `Subweave-Rule` uses for choices that no rule made. */
export const RESERVED_RULE_IDS = ['path', 'query', 'default'] as const;

const rule = (id: string, header: string, match: RuleMatch, value: string, result: RuleResult, enabled = true) => ({
  id,
  header,
  match,
  value,
  case_sensitive: false,
  enabled,
  result,
});

export const DEFAULT_FORMAT_RULES: readonly FormatRule[] = [
  rule('browser', 'accept', 'contains', 'text/html', 'page'),
  rule('hiddify', 'user-agent', 'contains', 'hiddify', 'base64'),
  rule(
    'mihomo',
    'user-agent',
    'regex',
    'clash[.-]?meta|mihomo|clash-verge|clash ?verge|flclash|nyanpasu|koala-clash|prizrak-box|clash-?party|stash',
    'mihomo',
  ),
  rule('clash', 'user-agent', 'prefix', 'clash', 'mihomo'),
  rule('sing-box', 'user-agent', 'regex', '^(sfa|sfi|sfm|sft|karing)|sing-box|singbox', 'sing-box'),
  rule('xray-apps', 'user-agent', 'regex', '^(happ|v2rayng|v2rayn|streisand|v2box)', 'xray', false),
];

export type LinkResult = Format | 'page' | 'block';

export interface LinkChoice {
  result: LinkResult;
  /** A rule id, or `path`, `query` or `default`. */
  rule: string;
  /** The document for an older client, set after the choice from its User-Agent (client-versions.ts). */
  variant?: FormatVariant;
}

export interface LinkRequest {
  /** The `{format}` path segment, when the path form was used. */
  pathFormat?: string | undefined;
  /** The `format` query parameter, when given. */
  queryFormat?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** A rule list compiled once per change, so matching a request does no parsing. */
export interface CompiledRules {
  rules: readonly FormatRule[];
  test: ((headers: LinkRequest['headers']) => boolean)[];
  /** Request headers the answer depends on, for `Vary`. */
  vary: string;
  /** The same names, lower-case, one per entry. */
  readHeaders: readonly string[];
}

export function compileRules(rules: readonly FormatRule[]): CompiledRules {
  const headers = new Set(['accept', 'user-agent']);
  const test = rules.map((r) => {
    if (r.enabled) headers.add(r.header);
    return matcher(r);
  });
  return { rules, test, vary: [...headers].join(', '), readHeaders: [...headers] };
}

/** Blocking rules first (naming a format does not escape them), then path, query, the other rules, base64. */
export function chooseLink(compiled: CompiledRules, request: LinkRequest): LinkChoice {
  const { rules, test } = compiled;
  const matches = (i: number) => rules[i]!.enabled && test[i]!(request.headers);
  for (let i = 0; i < rules.length; i++) {
    if (rules[i]!.result === 'block' && matches(i)) return { result: 'block', rule: rules[i]!.id };
  }
  if (request.pathFormat !== undefined) return { result: namedFormat(request.pathFormat), rule: 'path' };
  if (request.queryFormat !== undefined) return { result: namedFormat(request.queryFormat), rule: 'query' };
  for (let i = 0; i < rules.length; i++) {
    if (matches(i)) return { result: rules[i]!.result, rule: rules[i]!.id };
  }
  return { result: 'base64', rule: 'default' };
}

function namedFormat(name: string): Format {
  const format = formatNamed(name);
  if (!format) throw errors.unknownFormat(name, [...FORMATS, ...Object.keys(FORMAT_ALIASES)]);
  return format;
}

function matcher(r: FormatRule): (headers: LinkRequest['headers']) => boolean {
  const read = (headers: LinkRequest['headers']): string => {
    // Own properties only: a rule on `__proto__` or `constructor` must not reach Object.prototype.
    const value = Object.hasOwn(headers, r.header) ? headers[r.header] : undefined;
    const whole = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
    const text = whole.length > MAX_HEADER_READ ? whole.slice(0, MAX_HEADER_READ) : whole;
    return r.case_sensitive ? text : text.toLowerCase();
  };
  const value = r.case_sensitive ? r.value : r.value.toLowerCase();
  switch (r.match) {
    case 'contains':
      return (headers) => read(headers).includes(value);
    case 'prefix':
      return (headers) => read(headers).startsWith(value);
    case 'equals':
      return (headers) => read(headers) === value;
    case 'regex': {
      const pattern = rulePattern(r);
      return (headers) => pattern.test(read(headers));
    }
  }
}

const rulePattern = (r: FormatRule): LinearPattern =>
  compile(r.value, { ignoreCase: !r.case_sensitive, maxLength: MAX_RULE_VALUE_LENGTH });

/**
 * Checks what the schema cannot (and, for a stored list, what it did not see): unique and unreserved ids, header
 * names that are HTTP tokens, regexes RE2 compiles. A malformed regex is a validation issue; one RE2 refuses to run
 * (backreferences, lookaround) is `invalid_pattern`. Returns the list with header names lower-cased and `clash`
 * results made `mihomo`.
 */
export function validateRules(rules: readonly FormatRule[]): FormatRule[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  let unsupported: { index: number; error: InvalidPatternError } | undefined;
  for (const [index, r] of rules.entries()) {
    const at = `body.rules[${index}]`;
    if (seen.has(r.id)) issues.push({ path: `${at}.id`, message: `repeats the id '${r.id}'` });
    if ((RESERVED_RULE_IDS as readonly string[]).includes(r.id)) {
      issues.push({ path: `${at}.id`, message: `'${r.id}' is reserved` });
    }
    seen.add(r.id);
    if (typeof r.header !== 'string' || !RULE_HEADER.test(r.header)) {
      issues.push({ path: `${at}.header`, message: 'is not an HTTP header name (RFC 9110 token, 1-64 characters)' });
    }
    if (r.match !== 'regex') continue;
    try {
      rulePattern(r);
    } catch (error) {
      if (!(error instanceof InvalidPatternError)) throw error;
      if (!error.unsupported) {
        issues.push({ path: `${at}.value`, message: `is not a valid regular expression: ${error.reason}` });
      } else unsupported ??= { index, error };
    }
  }
  if (issues.length > 0) throw errors.validation('The rule list is not valid; nothing was changed.', issues);
  if (unsupported) {
    const { index, error } = unsupported;
    throw errors.invalidPattern(index, rules[index]!.id, error.pattern, error.reason);
  }
  return rules.map((r) => ({
    ...r,
    header: r.header.toLowerCase(),
    result: r.result === ('clash' as string) ? 'mihomo' : r.result,
  }));
}
