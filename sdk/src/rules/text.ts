/**
 * Strings PostgreSQL cannot store: a NUL character (refused in `text` and `jsonb`), and a UTF-16 surrogate without its
 * pair, which is not Unicode (`jsonb` refuses its escape; a `text` column would silently get U+FFFD instead).
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, e.g. `contains a NUL character (\u0000), which cannot be stored`; undefined when it can. */
export function textProblem(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (found === null) return undefined;
  if (found[0] === '\u0000') return 'contains a NUL character (\\u0000), which cannot be stored';
  const unit = found[0].charCodeAt(0).toString(16);
  return `contains an unpaired UTF-16 surrogate (\\u${unit}), which is not valid Unicode`;
}

/** UTF-8 bytes of `text`, measured only when it could be over `limit` (a UTF-16 unit takes at most 3 bytes). */
export function exceedsUtf8Bytes(text: string, limit: number): boolean {
  return text.length * 3 > limit && Buffer.byteLength(text, 'utf8') > limit;
}
