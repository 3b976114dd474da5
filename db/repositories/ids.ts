import { randomBytes } from 'node:crypto';

/** A short random identifier with a readable prefix, e.g. `ws_3f9a0c1d2b4e6f80`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
