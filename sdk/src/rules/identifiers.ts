/** Values that clients send when they have no identifier; they must never link two visitors. */
const JUNK_IDENTIFIERS = new Set([
  '', '0', '-1', 'null', 'undefined', 'nil', 'none', 'nan', 'anonymous', 'anon', 'unknown', 'guest', 'user',
  'false', 'true', '[object object]', 'n/a', 'na', '00000000-0000-0000-0000-000000000000',
]);

/** A usable identifier (trimmed), or undefined for junk such as `null`, `anonymous`, `0` or empty strings. */
export function meaningfulIdentifier(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return JUNK_IDENTIFIERS.has(trimmed.toLowerCase()) ? undefined : trimmed;
}
