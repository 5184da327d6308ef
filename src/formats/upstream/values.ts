// Profile documents are untrusted YAML/JSON; these read one member as the type a proxy field needs, or undefined.

export type Dict = Record<string, unknown>;

export function dict(value: unknown): Dict | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Dict) : undefined;
}

/** Text; numbers count too, since YAML reads `name: 1` and `password: 123456` as numbers. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

export function integer(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === 'true' || value === '1';
}

/** A list of texts, or one comma-separated text. */
export function texts(value: unknown): string[] | undefined {
  const items = Array.isArray(value)
    ? value.map(text).filter((item): item is string => item !== undefined)
    : (text(value)
        ?.split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '') ?? []);
  return items.length > 0 ? items : undefined;
}

export function port(value: unknown): number | undefined {
  const number = integer(value);
  return number !== undefined && number >= 1 && number <= 65535 ? number : undefined;
}
