// Fastify's route options take one hook or a list of them; code that adds its own needs both as a list.

export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
