import type { FastifyBaseLogger } from 'fastify';
import type { ApiKeyRepository } from '../../db/repositories/api-keys';
import { createBackgroundWrites } from './background-writes';

/** One write per key and process at most this often: the console's setup checklist needs minutes, not requests. */
const RECORD_EVERY_MS = 60_000;

/**
 * Records that a browser key had events accepted, and from which page origin (the setup checklist's "tracking script
 * seen"). Written in the background after the commit; a failure is logged and never changes the answer.
 */
export function createKeyUseLog(deps: { apiKeys: Pick<ApiKeyRepository, 'recordUse'>; log: FastifyBaseLogger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const lastRecorded = new Map<string, number>();
  const writes = createBackgroundWrites();

  return {
    /** The key's events from `origin` were committed; never throws, never waits. */
    used(keyId: string, origin: string): void {
      const at = now();
      const last = lastRecorded.get(keyId);
      if (last !== undefined && at - last < RECORD_EVERY_MS) return;
      if (lastRecorded.size > 10_000) lastRecorded.clear();
      lastRecorded.set(keyId, at);
      const write = deps.apiKeys.recordUse(keyId, origin, new Date(at)).catch((failure: unknown) => {
        lastRecorded.delete(keyId);
        deps.log.warn({ err: failure }, 'could not record the use of a browser key');
      });
      writes.track(write);
    },

    /** Waits for the writes under way, so that closing the app does not close the database under them. */
    drain: writes.drain,
  };
}

export type KeyUseLog = ReturnType<typeof createKeyUseLog>;
