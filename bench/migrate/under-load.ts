import type { Knex } from 'knex';
import { createDatabase } from '../../db/knex';
import { BACKFILL_APPLICATION_NAME } from '../../db/migrations/20261130100000_events_by_day';

/**
 * A store of the layout before days under the previous build's writes while it is migrated, and what PostgreSQL's
 * lock table shows meanwhile: shared by the back-fill's integration test and `npm run bench:migrate`.
 */

/** `count` conversions of a fresh store's events (IDs from 1), every third event a purchase: it must hold 3 × `count`. */
export async function addConversions(db: Knex, workspaceId: string, count: number): Promise<void> {
  await db.raw(
    `INSERT INTO conversions (workspace_id, event_row_id, message_id, source_event, tiktok_event, event_id, event_time, workflow_id)
     SELECT ?, id, message_id, 'purchase', 'CompletePayment', 'o-' || id, occurred_at, 'w-' || id FROM events WHERE id % 3 = 0 AND id <= ?`,
    [workspaceId, 3 * count],
  );
}

/** Seen in pg_stat_activity for the previous build's writers. */
const WRITER_APPLICATION_NAME = 'previous build';

export interface PreviousBuildLoad {
  /** Stops the writers: how many transactions they committed. */
  stop(): Promise<number>;
}

/**
 * The previous build at work, as it writes without the new columns: purchases stored (an event and its conversion in
 * one transaction) and the pipeline updating the stored conversions, each on its own connection, without deadlines.
 */
export function previousBuildWriting(url: string, workspaceId: string, storedConversions: number): PreviousBuildLoad {
  const db = createDatabase({ url, poolMax: 2 });
  let running = true;
  let writes = 0;
  const purchases = async () => {
    for (let n = 0; running; n++) {
      const messageId = `live-${n}`;
      await db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL application_name = '${WRITER_APPLICATION_NAME}'`);
        const [event] = await trx('events')
          .insert({ workspace_id: workspaceId, message_id: messageId, type: 'track', event_name: 'purchase', user_id: 'u-live', occurred_at: new Date(), message: {} })
          .returning('id');
        await trx('conversions').insert({
          workspace_id: workspaceId, event_row_id: event.id, message_id: messageId, source_event: 'purchase', tiktok_event: 'CompletePayment', event_id: messageId, event_time: new Date(), workflow_id: `w-${messageId}`,
        });
      });
      writes += 1;
    }
  };
  const pipeline = async () => {
    for (let n = 0; running; n++) {
      // The stored conversions in a scattered order, so that every batch of the back-fill meets some.
      await db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL application_name = '${WRITER_APPLICATION_NAME}'`);
        await trx.raw("UPDATE conversions SET attempts = attempts + 1, updated_at = now() WHERE event_id = 'o-' || ?", [3 * (1 + ((n * 7_919) % storedConversions))]);
      });
      writes += 1;
    }
  };
  const work = Promise.all([purchases(), pipeline()]);
  return {
    async stop() {
      running = false;
      await work.finally(() => db.destroy());
      return writes;
    },
  };
}

export interface LocksSeen {
  /** Relation lock modes the back-fill's transactions held. */
  heldByBackfill: Set<string>;
  /** Samples in which a back-fill transaction held a lock: none, and the watch saw nothing of it. */
  backfillSamples: number;
  /** The longest a writer waited on a lock the back-fill held, in seconds, by PostgreSQL's `waitstart`. */
  longestWaitOnBackfill: number;
  /** The longest the previous build's writers waited on any lock of the migration, in seconds. */
  longestWait: number;
}

/** Reads pg_locks every 10 ms until stopped: what the back-fill holds and who waits, and on whom. */
export function watchLocks(url: string): { stop(): Promise<LocksSeen> } {
  const db = createDatabase({ url, poolMax: 1 });
  const seen: LocksSeen = { heldByBackfill: new Set(), backfillSamples: 0, longestWaitOnBackfill: 0, longestWait: 0 };
  let running = true;
  const watch = async () => {
    while (running) {
      const { rows } = await db.raw<{ rows: { app: string; locktype: string; mode: string; granted: boolean; waited: number | null; blockers: string[] | null }[] }>(
        `SELECT a.application_name AS app, l.locktype, l.mode, l.granted, extract(epoch FROM clock_timestamp() - l.waitstart)::float8 AS waited,
                (SELECT array_agg(b.application_name) FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(l.pid))) AS blockers
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()`,
      );
      for (const lock of rows) {
        if (lock.app === BACKFILL_APPLICATION_NAME && lock.granted && lock.locktype === 'relation') {
          seen.heldByBackfill.add(lock.mode);
          seen.backfillSamples += 1;
        }
        if (lock.granted || lock.app !== WRITER_APPLICATION_NAME) continue;
        const waited = lock.waited ?? 0;
        seen.longestWait = Math.max(seen.longestWait, waited);
        if (lock.blockers?.includes(BACKFILL_APPLICATION_NAME)) seen.longestWaitOnBackfill = Math.max(seen.longestWaitOnBackfill, waited);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const work = watch();
  return {
    async stop() {
      running = false;
      await work.finally(() => db.destroy());
      return seen;
    },
  };
}
