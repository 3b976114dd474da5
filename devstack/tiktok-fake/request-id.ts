import { randomBytes } from 'node:crypto';

/** TikTok's 34-character request_id: UTC `YYYYMMDDhhmmss` + 20 upper-case hex (§0 "request_id format"). */
export function newRequestId(now: Date): string {
  const timestamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return timestamp + randomBytes(10).toString('hex').toUpperCase();
}
