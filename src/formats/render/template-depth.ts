// How deep a template nests, checked before anything recursive (a parser, JSON.stringify, the YAML writer) sees it.
import { CST, Lexer } from 'yaml';

/** The deepest nesting a template may have (docs/templates.md). */
export const MAX_TEMPLATE_DEPTH = 32;

/** True when a parsed value nests collections deeper than `max`; walks without recursion and stops at the limit. */
export function nestsDeeper(value: unknown, max = MAX_TEMPLATE_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * True when YAML text would nest deeper than `max`, read from its tokens (the `yaml` composer recurses, and a deep
 * enough document exhausts the stack or the heap). Flow collections count one level each; block collections one
 * per indentation step or `- `/`? ` indicator. Block scalar text is read as text.
 */
export function yamlNestsDeeper(text: string, max = MAX_TEMPLATE_DEPTH): boolean {
  const columns: number[] = [];
  let flow = 0;
  let column = 0;
  let lineStart = true;
  /** A block collection at column `at`: deeper ones have ended; `push` when one starts here. */
  const open = (at: number, push: boolean): void => {
    while (columns.length > 0 && columns[columns.length - 1]! > at) columns.pop();
    if (push && (columns.length === 0 || columns[columns.length - 1]! < at)) columns.push(at);
  };
  for (const token of new Lexer().lex(text)) {
    if (token === CST.DOCUMENT || token === CST.FLOW_END) continue;
    const type = CST.tokenType(token);
    if (type === 'newline') {
      column = 0;
      lineStart = true;
      continue;
    }
    const block = flow === 0;
    const starts = type === 'flow-seq-start' || type === 'flow-map-start';
    if (starts) flow++;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') flow = Math.max(0, flow - 1);
    if (block && lineStart && type !== 'space' && type !== 'comment') open(column, !starts);
    else if (block && (type === 'seq-item-ind' || type === 'explicit-key-ind')) open(column, true);
    if (type !== 'space') lineStart = false;
    if (columns.length + flow > max) return true;
    if (token === CST.SCALAR) continue; // marks where a scalar starts; takes no room in the text
    const newline = token.lastIndexOf('\n');
    column = newline < 0 ? column + token.length : token.length - newline - 1;
  }
  return false;
}
