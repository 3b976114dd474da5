import { IngestRefusal } from '../../http/ingest-refusal';
import type { KeySource } from './key-policy';

export interface PresentedKey {
  key: string;
  source: KeySource;
}

const USAGE =
  'send Authorization: Bearer <API key>, or Basic auth with the key as user name and an empty password; pages and Segment browser libraries may send writeKey in the JSON body or the query string';

function fromAuthorization(header: string): string {
  const [scheme = '', value = '', ...rest] = header.trim().split(/\s+/);
  if (value === '' || rest.length > 0) throw new IngestRefusal('malformed_authorization', `Authorization header is malformed: ${USAGE}`);
  switch (scheme.toLowerCase()) {
    case 'bearer':
      return value;
    case 'basic': {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const user = colon === -1 ? decoded : decoded.slice(0, colon);
      const password = colon === -1 ? '' : decoded.slice(colon + 1);
      if (user === '') throw new IngestRefusal('malformed_authorization', `Authorization Basic user name is empty: ${USAGE}`);
      if (password !== '') throw new IngestRefusal('malformed_authorization', `Authorization Basic password must be empty: ${USAGE}`);
      return user;
    }
    default:
      throw new IngestRefusal('malformed_authorization', `Authorization scheme ${scheme} is not supported: ${USAGE}`);
  }
}

function writeKeyIn(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const writeKey = (value as { writeKey?: unknown }).writeKey;
  return typeof writeKey === 'string' && writeKey.trim() !== '' ? writeKey.trim() : undefined;
}

/**
 * The key of a request as far as it can be known before the body is read: `Authorization` (`Bearer <key>`, or
 * `Basic base64(<key>:)` as Segment's and RudderStack's libraries send it), else `?writeKey=`. Undefined when neither
 * is there, as `sendBeacon` cannot set headers and Segment's browser library puts `writeKey` in the body. Throws 401
 * for a malformed header.
 */
export function keyFromHeadersOrQuery(request: { headers: { authorization?: string }; query: unknown }): PresentedKey | undefined {
  const header = request.headers.authorization;
  if (header !== undefined && header.trim() !== '') return { key: fromAuthorization(header), source: 'authorization' };
  const key = writeKeyIn(request.query);
  return key === undefined ? undefined : { key, source: 'query' };
}

/** `writeKey` of a JSON body (Segment's browser and mobile libraries send it there); throws 401 when absent. */
export function keyFromBody(body: unknown): PresentedKey {
  const key = writeKeyIn(body);
  if (key === undefined) throw new IngestRefusal('missing_key', `API key is missing: ${USAGE}`);
  return { key, source: 'body' };
}
