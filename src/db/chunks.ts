// Queries that bind one variable per item split their lists, so no size depends on driver limits (SQLite allows 32,766 variables).

/** Variables per `in (...)` list: far below SQLite's 32,766 and PostgreSQL's 65,535. */
export const IN_CHUNK = 1000;

/** `items` in lists of at most `size`. */
export function chunks<T>(items: readonly T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
