import * as crypto from 'crypto';

/** RFC 4122 version 4 UUID from 16 random bytes; for Node versions before 14.17, which lack `crypto.randomUUID`. */
export function randomBytesUuid(): string {
  const bytes = crypto.randomBytes(16);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const generateUuid: () => string =
  typeof crypto.randomUUID === 'function' ? () => crypto.randomUUID() : randomBytesUuid;
