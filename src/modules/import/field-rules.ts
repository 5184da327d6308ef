// The API's rules for free text (names, descriptions, comments) applied to v2hub's rows, which never met them.
import { CONTROL_CHARACTER } from '../sources/source-input.js';

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');

export interface FittedText {
  /** Without control characters, trimmed, at most `max` code points. */
  text: string;
  /** What was changed and why, for the report: empty when nothing was. */
  changes: Array<{ what: string; why: string }>;
}

/**
 * Trims, removes the control characters the API refuses, and cuts to `max` code points as the API counts them. The
 * cut falls between code points, so it never splits a surrogate pair.
 */
export function fitText(raw: string, max: number): FittedText {
  const changes: FittedText['changes'] = [];
  // Surrounding whitespace is trimmed as the API trims it; only what is left inside counts as a change.
  const trimmed = raw.trim();
  const controls = trimmed.match(CONTROL_CHARACTERS)?.length ?? 0;
  let text = controls > 0 ? trimmed.replace(CONTROL_CHARACTERS, '').trim() : trimmed;
  if (controls > 0) {
    const what = `${controls} control character${controls === 1 ? '' : 's'} removed`;
    changes.push({ what, why: 'the API refuses control characters' });
  }
  const points = [...text];
  if (points.length > max) {
    text = points.slice(0, max).join('').trimEnd();
    changes.push({ what: `cut from ${points.length} to ${max} characters`, why: `the API allows at most ${max}` });
  }
  return { text, changes };
}
