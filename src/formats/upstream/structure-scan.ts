// A structured upstream (mihomo YAML, sing-box JSON) is looked over in one linear pass before any parser sees it: deep nesting and alias bombs end the process or its memory inside a parser (docs/security.md).

/** Deeper documents are refused: real profiles nest fewer than ten levels. */
export const MAX_NESTING = 64;
/** More YAML aliases (`*name`), or more merge keys (`<<`), than this are refused. */
export const MAX_ALIASES = 1000;

/** Thrown instead of parsing a body the pre-scan refused; the message says why. */
export class StructureRefused extends Error {}

const Ch = {
  Tab: 9,
  Newline: 10,
  Return: 13,
  Space: 32,
  DoubleQuote: 34,
  Hash: 35,
  Ampersand: 38,
  Quote: 39,
  Star: 42,
  Comma: 44,
  Dash: 45,
  Colon: 58,
  Less: 60,
  Greater: 62,
  Bang: 33,
  Question: 63,
  OpenBracket: 91,
  Backslash: 92,
  CloseBracket: 93,
  OpenBrace: 123,
  Pipe: 124,
  CloseBrace: 125,
} as const;

/** Why `text` may not be parsed, or null. `json` scans brackets only; YAML scans indentation and flow brackets both. */
export function structureProblem(text: string, json: boolean): string | null {
  return json ? jsonProblem(text) : new YamlScan(text).run();
}

function tooDeep(): string {
  return `nesting deeper than ${MAX_NESTING} levels`;
}

function jsonProblem(text: string): string | null {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === Ch.DoubleQuote) {
      i = skipDoubleQuoted(text, i);
    } else if (c === Ch.OpenBracket || c === Ch.OpenBrace) {
      if (++depth > MAX_NESTING) return tooDeep();
    } else if (c === Ch.CloseBracket || c === Ch.CloseBrace) {
      depth--;
    }
  }
  return null;
}

/** Index of the closing quote of the double-quoted string opening at `start` (or the last index). */
function skipDoubleQuoted(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === Ch.Backslash) i++;
    else if (c === Ch.DoubleQuote) return i;
  }
  return text.length - 1;
}

/** Index of the closing quote of the single-quoted YAML scalar opening at `start` (`''` is an escaped quote). */
function skipSingleQuoted(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text.charCodeAt(i) !== Ch.Quote) continue;
    if (text.charCodeAt(i + 1) !== Ch.Quote) return i;
    i++;
  }
  return text.length - 1;
}

/** YAML breaks lines at LF, CR LF and a lone CR. */
function isBreak(c: number): boolean {
  return c === Ch.Newline || c === Ch.Return;
}

function isBlank(c: number): boolean {
  return c === Ch.Space || c === Ch.Tab || isBreak(c) || Number.isNaN(c);
}

/**
 * Block nesting is a stack of columns: a line deeper than the top opens a level, `- ` opens one at its content, and
 * a key ending its line opens one half a column right of it (so a sequence at the key's own column is inside it).
 * Flow collections (`[`, `{`) add their bracket depth on top. Over-counting a level is harmless; missing one is not.
 */
class YamlScan {
  private i = 0;
  private readonly columns: number[] = [];
  private aliases = 0;
  private merges = 0;
  /** While a block scalar (`|`, `>`) runs: lines indented deeper than this are its text. */
  private scalarIndent = -1;

  constructor(private readonly text: string) {}

  run(): string | null {
    const { text } = this;
    while (this.i < text.length) {
      const problem = this.line();
      if (problem !== null) return problem;
    }
    return null;
  }

  /** Scans one line from its start (a flow collection may carry it over several lines). */
  private line(): string | null {
    const { text } = this;
    const start = this.i;
    while (text.charCodeAt(this.i) === Ch.Space) this.i++;
    const indent = this.i - start;
    while (text.charCodeAt(this.i) === Ch.Tab) this.i++;
    const first = text.charCodeAt(this.i);
    if (isBreak(first) || Number.isNaN(first) || first === Ch.Hash) return this.skipLine();
    if (this.scalarIndent >= 0) {
      if (indent > this.scalarIndent) return this.skipLine();
      this.scalarIndent = -1;
    }
    const compactSequence = first === Ch.Dash && isBlank(text.charCodeAt(this.i + 1));
    const columns = this.columns;
    while (columns.length > 0 && (columns.at(-1) as number) > indent) {
      if (compactSequence && columns.at(-1) === indent + 0.5) break;
      columns.pop();
    }
    const top = columns.at(-1);
    // The level a key opened for its value is this line's level when the line is deeper.
    if (top !== undefined && top < indent && !Number.isInteger(top)) columns.pop();
    if (top === undefined || top < indent) columns.push(indent);
    if (columns.length > MAX_NESTING) return tooDeep();
    return this.content(indent, start);
  }

  /** The rest of a line from a point where a node may begin. */
  private content(indent: number, lineStart: number): string | null {
    const { text } = this;
    let nodeStart = true;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (isBreak(c)) break;
      if (c === Ch.Space || c === Ch.Tab) {
        this.i++;
        continue;
      }
      if (c === Ch.Hash) return this.skipLine();
      const column = this.i - lineStart;
      if (nodeStart) {
        const step = this.nodeStart(c, indent, lineStart);
        if (step === 'stop') return this.skipLine();
        if (step === 'node') continue;
        if (step !== 'plain') return step;
      }
      nodeStart = this.plain(column);
    }
    this.i++;
    return null;
  }

  /**
   * A node's first character: `node` when another node may begin after it (`- `, an anchor, a tag, a scalar or
   * flow collection just closed), `stop` for a block scalar (the rest of the line is its header), `plain` for a
   * plain scalar or key, else a problem.
   */
  private nodeStart(c: number, indent: number, lineStart: number): string {
    const { text } = this;
    const next = text.charCodeAt(this.i + 1);
    if ((c === Ch.Dash || c === Ch.Question) && isBlank(next)) {
      this.i++;
      while (text.charCodeAt(this.i) === Ch.Space) this.i++;
      if (!isBlank(text.charCodeAt(this.i))) {
        this.columns.push(this.i - lineStart);
        if (this.columns.length > MAX_NESTING) return tooDeep();
      }
      return 'node';
    }
    if (c === Ch.OpenBracket || c === Ch.OpenBrace) return this.flow() ?? 'node';
    if (c === Ch.DoubleQuote || c === Ch.Quote) {
      this.i = (c === Ch.DoubleQuote ? skipDoubleQuoted(text, this.i) : skipSingleQuoted(text, this.i)) + 1;
      return 'plain';
    }
    if (c === Ch.Pipe || c === Ch.Greater) {
      this.scalarIndent = indent;
      return 'stop';
    }
    if (c === Ch.Star && ++this.aliases > MAX_ALIASES) return `more than ${MAX_ALIASES} YAML aliases`;
    if (c === Ch.Star || c === Ch.Ampersand || c === Ch.Bang) {
      while (!isBlank(text.charCodeAt(this.i)) && text.charCodeAt(this.i) !== Ch.Comma) this.i++;
      return 'node';
    }
    if (c === Ch.Less && next === Ch.Less && ++this.merges > MAX_ALIASES) {
      return `more than ${MAX_ALIASES} YAML merge keys`;
    }
    return 'plain';
  }

  /**
   * A plain scalar or key up to the end of its line, a comment, or `: ` (then a node may begin: true). A key that
   * ends its line opens a level for the value below it.
   */
  private plain(keyColumn: number): boolean {
    const { text } = this;
    for (; this.i < text.length; this.i++) {
      const c = text.charCodeAt(this.i);
      if (isBreak(c)) return false;
      if (c === Ch.Hash && isBlank(text.charCodeAt(this.i - 1))) return false;
      if (c !== Ch.Colon || !isBlank(text.charCodeAt(this.i + 1))) continue;
      this.i++;
      if (this.restIsEmpty()) this.columns.push(keyColumn + 0.5);
      return true;
    }
    return false;
  }

  /** Whether nothing but blanks and a comment follow on this line. */
  private restIsEmpty(): boolean {
    const { text } = this;
    for (let j = this.i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (isBreak(c) || c === Ch.Hash) return true;
      if (!isBlank(c)) return false;
    }
    return true;
  }

  /** A flow collection from its opening bracket to the matching close, across lines; null when it is fine. */
  private flow(): string | null {
    const { text } = this;
    let depth = 0;
    let tokenStart = true;
    for (; this.i < text.length; this.i++) {
      const c = text.charCodeAt(this.i);
      if (c === Ch.OpenBracket || c === Ch.OpenBrace) {
        if (++depth + this.columns.length > MAX_NESTING) return tooDeep();
        tokenStart = true;
      } else if (c === Ch.CloseBracket || c === Ch.CloseBrace) {
        if (--depth === 0) {
          this.i++;
          return null;
        }
        tokenStart = false;
      } else if (c === Ch.DoubleQuote) {
        this.i = skipDoubleQuoted(text, this.i);
      } else if (c === Ch.Quote && tokenStart) {
        this.i = skipSingleQuoted(text, this.i);
      } else if (c === Ch.Hash && isBlank(text.charCodeAt(this.i - 1))) {
        while (this.i + 1 < text.length && !isBreak(text.charCodeAt(this.i + 1))) this.i++;
      } else if (c === Ch.Comma || c === Ch.Colon || isBlank(c)) {
        tokenStart = true;
      } else {
        if (tokenStart && c === Ch.Star && ++this.aliases > MAX_ALIASES) return `more than ${MAX_ALIASES} YAML aliases`;
        if (tokenStart && c === Ch.Less && text.charCodeAt(this.i + 1) === Ch.Less && ++this.merges > MAX_ALIASES) {
          return `more than ${MAX_ALIASES} YAML merge keys`;
        }
        tokenStart = false;
      }
    }
    return null;
  }

  private skipLine(): null {
    const { text } = this;
    while (this.i < text.length && !isBreak(text.charCodeAt(this.i))) this.i++;
    this.i++;
    return null;
  }
}
