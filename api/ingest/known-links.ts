import type { IdentityLink } from '../../domain/observation';

export interface KnownLinksOptions {
  maxEntries?: number;
  ttlMs?: number;
}

/**
 * Identity links this process committed lately, so that a returning visitor's links (user ID, anonymous ID, hashed
 * email) are not written again with each of its events, only for PostgreSQL to find them there. Bounded in size and
 * age. An erasure clears it in this process; another ingest process may skip a link it still remembers for at most
 * `ttlMs`, and writes it with the person's next event after that.
 */
export function createKnownLinks({ maxEntries = 200_000, ttlMs = 60_000 }: KnownLinksOptions = {}) {
  const expiries = new Map<string, number>();
  const keyOf = (workspaceId: string, { from, to }: IdentityLink) => {
    const a = `${from.kind}\0${from.value}`;
    const b = `${to.kind}\0${to.value}`;
    return a < b ? `${workspaceId}\0${a}\0${b}` : `${workspaceId}\0${b}\0${a}`;
  };

  return {
    /** The links not committed by this process within `ttlMs`. */
    unknown(workspaceId: string, links: readonly IdentityLink[]): IdentityLink[] {
      const now = Date.now();
      return links.filter((link) => (expiries.get(keyOf(workspaceId, link)) ?? 0) <= now);
    },
    /** Call once the transaction that wrote `links` has committed. */
    remember(workspaceId: string, links: readonly IdentityLink[]): void {
      const expiresAt = Date.now() + ttlMs;
      for (const link of links) {
        const key = keyOf(workspaceId, link);
        expiries.delete(key); // re-inserted last: the map's order is the eviction order
        expiries.set(key, expiresAt);
      }
      for (const oldest of expiries.keys()) {
        if (expiries.size <= maxEntries) break;
        expiries.delete(oldest);
      }
    },
    clear(): void {
      expiries.clear();
    },
  };
}

export type KnownLinks = ReturnType<typeof createKnownLinks>;
