import type { Knex } from 'knex';
import { removeEvents, type RemovedEvents } from './event-removal';

export function createRetentionRepository(db: Knex) {
  return {
    /**
     * One bounded batch of the workspace's events received before `cutoff` and not stripped yet: deleted, or stripped
     * when a conversion refers to them. Events of a conversion still pending keep their message (its steps read it).
     * Rows another transaction holds are skipped, never waited for. Only the partitions of the days up to the cutoff's
     * are read and written: a store holding a month is not scanned every hour for the remainder of one day.
     */
    async removeExpired(workspaceId: string, cutoff: Date, limit: number, executor: Knex = db): Promise<RemovedEvents> {
      return removeEvents(
        executor,
        {
          sql: `SELECT e.id FROM events e
                WHERE e.workspace_id = ? AND e.received_at < ? AND e.received_on <= (?::timestamptz AT TIME ZONE 'UTC')::date AND e.stripped_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM conversions c WHERE c.event_row_id = e.id AND c.status = 'pending')
                LIMIT ? FOR UPDATE SKIP LOCKED`,
          bindings: [workspaceId, cutoff, cutoff, limit],
        },
        { forgetIdentity: false, receivedBy: cutoff },
      );
    },

    /**
     * One bounded batch of the workspace's settled conversions created before `cutoff`, oldest first, deleted with
     * their timeline (the events that repeated them lose the mark). Pending ones stay whatever their age.
     */
    async removeExpiredConversions(workspaceId: string, cutoff: Date, limit: number, executor: Knex = db): Promise<number> {
      const { rowCount } = await executor.raw<{ rowCount: number }>(
        `DELETE FROM conversions WHERE id IN (
           SELECT id FROM conversions WHERE workspace_id = ? AND status <> 'pending' AND created_at < ?
           ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)`,
        [workspaceId, cutoff, limit],
      );
      return rowCount;
    },
  };
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
