// The stored form of a subscription's chain (a JSON column) to and from what the API shows and the resolver runs.
import type { Chain } from '../resolve/resolver.js';
import { applyTransforms } from './apply.js';
import type { Operator } from './operators.js';
import { compileTransforms, TransformError, validateTransforms, type CompiledChain } from './validate.js';
import { errors } from '../../http/errors.js';

/** A chain from a request, or 400 invalid_transform naming the first bad operator. */
export function requestedChain(input: unknown): CompiledChain {
  try {
    return compileTransforms(input);
  } catch (error) {
    if (error instanceof TransformError) throw errors.invalidTransform(error.index, error.message);
    throw error;
  }
}

/** The column value for a validated chain: null when empty, so a subscription without one serves as before. */
export function storedTransforms(operators: readonly Operator[]): string | null {
  return operators.length === 0 ? null : JSON.stringify(operators);
}

/** The operators a column holds; a value this version cannot read shows (and runs) as no chain. */
export function transformsOf(stored: string | null): Operator[] {
  if (stored === null) return [];
  try {
    return validateTransforms(JSON.parse(stored));
  } catch {
    return [];
  }
}

/** The chain a column holds, bound to MAX_RESOLVED_CONFIGS; undefined when there is none to run. */
export function chainOf(stored: string | null, maxServers: number): Chain | undefined {
  if (stored === null) return undefined;
  let compiled;
  try {
    compiled = compileTransforms(JSON.parse(stored));
  } catch {
    return undefined;
  }
  if (compiled.length === 0) return undefined;
  return (servers) => applyTransforms(servers, compiled, maxServers).servers;
}
