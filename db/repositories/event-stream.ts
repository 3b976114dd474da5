import type { Knex } from 'knex';
import type { EventRow } from '../types';

/** The event debugger's feed: a workspace's newest events, read by ID so it works across ingest replicas. */
export function createEventStreamRepository(db: Knex) {
  return {
    /** The last `limit` events of the last hour, oldest first: what the debugger shows on opening. */
    async latest(workspaceId: string, limit: number, executor: Knex = db): Promise<EventRow[]> {
      const rows = await executor('events')
        .where({ workspace_id: workspaceId })
        .whereRaw("received_at > now() - interval '1 hour'")
        .orderBy('id', 'desc')
        .limit(limit);
      return rows.reverse();
    },

    /** Events after `afterId`, oldest first. Scans only IDs past it (the primary key), a second or so of traffic. */
    async after(workspaceId: string, afterId: string, limit: number, executor: Knex = db): Promise<EventRow[]> {
      return executor('events').where({ workspace_id: workspaceId }).where('id', '>', afterId).orderBy('id').limit(limit);
    },

    async newestId(executor: Knex = db): Promise<string> {
      const row = await executor('events').max<{ max: string | null }[]>({ max: 'id' });
      return String(row[0]?.max ?? 0);
    },

    async find(workspaceId: string, ids: readonly string[], executor: Knex = db): Promise<EventRow[]> {
      if (ids.length === 0) return [];
      return executor('events').where({ workspace_id: workspaceId }).whereIn('id', [...ids]);
    },
  };
}

export type EventStreamRepository = ReturnType<typeof createEventStreamRepository>;
