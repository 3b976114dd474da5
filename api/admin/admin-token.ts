import { createHash, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIXES } from '../../db/repositories/api-keys';
import { unauthorized } from '../http/http-error';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Checks `Authorization: Bearer <ADMIN_TOKEN>` in constant time (digests make the lengths equal). */
export function createAdminTokenCheck(adminToken: string) {
  const expected = digest(adminToken);
  return function requireAdminToken(header: string | undefined): void {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (match === null) throw unauthorized('Authorization header must be Bearer <ADMIN_TOKEN>');
    const token = match[1] as string;
    if (timingSafeEqual(digest(token), expected)) return;
    if (Object.values(API_KEY_PREFIXES).some((prefix) => token.startsWith(prefix))) {
      throw unauthorized('API keys can only send events: the settings API needs the admin token');
    }
    throw unauthorized('admin token is not valid');
  };
}
