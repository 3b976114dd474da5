const BIGINT_MARK = '\u0000bigint:';

/**
 * JSON.stringify that writes BigInt values as bare JSON numbers, as TikTok writes permission IDs above 2^53 in
 * `scope`; a client using plain `JSON.parse` would round them, which is what our client must cope with.
 */
export function toJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${BIGINT_MARK}${item.toString()}` : item));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
