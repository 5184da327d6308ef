// The `flag` operator: guesses a server's country from its name and puts that country's flag emoji in front.
import { createRequire } from 'node:module';
import { foldName } from './han-fold.js';
import { IGNORED_CODES, OTHER_CODES, PLACE_NAMES, WORDLIKE_CODES } from './place-names.js';

interface LocaleFile {
  countries: Record<string, string | string[]>;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  code?: string;
}

interface NameIndex {
  trie: TrieNode;
  /** Every ISO 3166-1 alpha-2 code. */
  codes: ReadonlySet<string>;
}

/** Latin and Cyrillic names match as whole words; Chinese has no spaces, so its names match anywhere. */
const ALPHABETIC = /[\p{Script=Latin}\p{Script=Cyrillic}]/u;
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;
const isAsciiLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isAlphabetic = (char: string | undefined): boolean => {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  return code < 0x80 ? isAsciiLetter(code) : ALPHABETIC.test(char);
};
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';
/** Names are guessed from their start; a longer name says where it is well before this. */
const MAX_GUESS_LENGTH = 256;

let index: NameIndex | null = null;

/**
 * Built on first use from i18n-iso-countries' en, zh and ru names (about 15 ms) and place-names.ts. Latin names of
 * three letters or fewer ("US", "UK", "USA") are left to the code scanner, which reads them only in capitals.
 */
function nameIndex(): NameIndex {
  if (index) return index;
  const require = createRequire(import.meta.url);
  const trie: TrieNode = { next: new Map() };
  const add = (name: string, code: string): void => {
    const folded = foldName(name);
    if (/^[a-z.\s]{1,4}$/.test(folded) && folded.replace(/[.\s]/g, '').length <= 3) return;
    let node = trie;
    // By UTF-16 code unit, as namesIn walks.
    for (let i = 0; i < folded.length; i++) {
      const char = folded[i]!;
      let child = node.next.get(char);
      if (!child) node.next.set(char, (child = { next: new Map() }));
      node = child;
    }
    node.code ??= code;
  };
  for (const [code, names] of Object.entries(PLACE_NAMES)) for (const name of names) add(name, code);
  const locales = ['en', 'zh', 'ru'].map((locale) => require(`i18n-iso-countries/langs/${locale}.json`) as LocaleFile);
  for (const { countries } of locales) {
    for (const [code, names] of Object.entries(countries)) {
      for (const name of Array.isArray(names) ? names : [names]) add(name, code);
    }
  }
  index = { trie, codes: new Set(Object.keys(locales[0]!.countries)) };
  return index;
}

/** The flag emoji of an ISO 3166-1 alpha-2 code. */
export function flagEmoji(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((char) => 0x1f1e6 + char.charCodeAt(0) - 65));
}

/** Whether the name already shows a flag (a regional indicator anywhere in it). */
export function hasFlag(name: string): boolean {
  return REGIONAL_INDICATOR.test(name);
}

/**
 * The country a server name points at, or null. The first place named wins, except China: relay names such as
 * "上海 → 日本" name the entry city first, so a Chinese match counts only when nothing else matches.
 */
export function guessCountry(name: string): string | null {
  const text = name.length > MAX_GUESS_LENGTH ? name.slice(0, MAX_GUESS_LENGTH) : name;
  const found = [...namesIn(text), ...codesIn(text, nameIndex().codes)].sort((a, b) => a.at - b.at);
  return (found.find((match) => match.code !== 'CN') ?? found[0])?.code ?? null;
}

/** `name` with its country's flag in front; unchanged when it already has a flag or no country is recognised. */
export function withFlag(name: string): string {
  if (hasFlag(name)) return name;
  const code = guessCountry(name);
  return code === null ? name : `${flagEmoji(code)} ${name}`;
}

interface Match {
  at: number;
  code: string;
}

/** Country and city names, longest first at each place a word can start. */
function namesIn(text: string): Match[] {
  const chars = foldName(text);
  const { trie } = nameIndex();
  const found: Match[] = [];
  for (let start = 0; start < chars.length; start++) {
    if (!trie.next.has(chars[start]!) || (isAlphabetic(chars[start]) && isAlphabetic(chars[start - 1]))) continue;
    let node: TrieNode | undefined = trie;
    let best: string | undefined;
    let end = start;
    for (let i = start; i < chars.length && node; i++) {
      node = node.next.get(chars[i]!);
      if (node?.code !== undefined && !(isAlphabetic(chars[i]) && isAlphabetic(chars[i + 1]))) {
        best = node.code;
        end = i;
      }
    }
    if (best !== undefined) {
      found.push({ at: start, code: best });
      start = end;
    }
  }
  return found;
}

/**
 * Codes in capitals as whole tokens ("US 01", "[JP]", "HK-02", "SG01"), never inside a word ("CNAME") nor after a
 * number ("10 GB"). A code that is also a word ("IN", "IT") counts only before a number or inside brackets.
 */
function codesIn(text: string, codes: ReadonlySet<string>): Match[] {
  const found: Match[] = [];
  let start = 0;
  while (start < text.length) {
    if (!isAsciiLetter(text.charCodeAt(start))) {
      start++;
      continue;
    }
    let end = start;
    while (end < text.length && isAsciiLetter(text.charCodeAt(end))) end++;
    const token = text.slice(start, end);
    const code = codeOf(token, codes);
    if (code !== null && !afterNumber(text, start) && !(token === 'CN' && text[end] === '2')) {
      if (!WORDLIKE_CODES.has(token) || beforeNumber(text, end) || bracketed(text, start, end)) {
        found.push({ at: start, code });
      }
    }
    start = end;
  }
  return found;
}

function codeOf(token: string, codes: ReadonlySet<string>): string | null {
  if (token !== token.toUpperCase()) return null;
  if (Object.hasOwn(OTHER_CODES, token)) return OTHER_CODES[token]!;
  return token.length === 2 && codes.has(token) && !IGNORED_CODES.has(token) ? token : null;
}

function afterNumber(text: string, start: number): boolean {
  let i = start - 1;
  while (text[i] === ' ') i--;
  return isDigit(text[i]);
}

function beforeNumber(text: string, end: number): boolean {
  let i = end;
  while (text[i] === ' ' || text[i] === '-' || text[i] === '_') i++;
  return isDigit(text[i]);
}

const OPENERS = '[(【（「<';
const CLOSERS = '])】）」>';

function bracketed(text: string, start: number, end: number): boolean {
  const open = OPENERS.indexOf(text[start - 1] ?? '');
  return open !== -1 && text[end] === CLOSERS[open];
}
