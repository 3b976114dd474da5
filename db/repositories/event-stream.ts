import type { Knex } from 'knex';
import { withFullMessage } from '../event-message';
import type { ConversionStatus, EventRow } from '../types';
import { sameShopifyOrderSql } from './order-repeats';

/** What became of a stored event, read from the conversions, the duplicate mark and the rules (see `outcomes`). */
export interface EventOutcomeFacts {
  eventId: string;
  /** The conversions the event itself became, in its rule's order (the rule's event, then its `alsoSendAs` events). */
  conversions: { id: string; tiktokEvent: string; status: ConversionStatus; reason: string | null; testMode: boolean }[];
  /**
   * The earlier conversion whose order_id / event_id it repeated, and that conversion's message; `sameOrder` when it is
   * the same Shopify order from another of its topics (db/repositories/order-repeats.ts).
   */
  duplicateOf: { conversionId: string; messageId: string; tiktokEvent: string; sameOrder: boolean } | null;
  /** When the rule for its event name was added, if there is one now. */
  ruleCreatedAt: Date | null;
}

const OUTCOMES_SQL = `
  SELECT e.id::text AS event_id,
         coalesce((SELECT json_agg(json_build_object('id', c.id::text, 'tiktokEvent', c.tiktok_event, 'status', c.status, 'reason', c.reason, 'testMode', c.test_mode)
                                   ORDER BY c.rule_event_index)
                   FROM conversions c WHERE c.event_row_id = e.id), '[]') AS conversions,
         (SELECT json_build_object('conversionId', d.id::text, 'messageId', d.message_id, 'tiktokEvent', d.tiktok_event, 'sameOrder', ${sameShopifyOrderSql('e', 'd')})
          FROM conversions d WHERE d.id = e.duplicate_of_conversion_id) AS duplicate_of,
         (SELECT r.created_at FROM conversion_rules r WHERE r.workspace_id = e.workspace_id AND r.source_event = e.event_name) AS rule_created_at
  FROM events e
  WHERE e.workspace_id = ? AND e.id = ANY(?::bigint[])`;

/** The event debugger's feed: a workspace's newest events, read by ID so it works across ingest replicas. */
export function createEventStreamRepository(db: Knex) {
  return {
    /**
     * The newest `limit` events of the last hour, oldest first by ID: what the debugger shows on opening. Only the
     * partitions of that hour's days are read, each through the workspace's range of the hour in `events_received`
     * (workspace, received time, ID). Taken newest first by ID through the primary key instead, a workspace with fewer
     * than `limit` events in the hour had PostgreSQL walk back through every other workspace's events of the day
     * (1,100,000 rows, 0.6 s, at 40,000,000 stored events: issue 49).
     */
    async latest(workspaceId: string, limit: number, executor: Knex = db): Promise<EventRow[]> {
      const newest = executor('events')
        .where({ workspace_id: workspaceId })
        .whereRaw("received_at > now() - interval '1 hour'")
        .whereRaw("received_on >= ((now() - interval '1 hour') AT TIME ZONE 'UTC')::date")
        .orderBy([{ column: 'received_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(limit);
      const rows: EventRow[] = await executor.select('*').from(newest.as('newest')).orderBy('id');
      return rows.map(withFullMessage);
    },

    /** Events after `afterId`, oldest first. Scans only IDs past it (the primary key), a second or so of traffic. */
    async after(workspaceId: string, afterId: string, limit: number, executor: Knex = db): Promise<EventRow[]> {
      const rows: EventRow[] = await executor('events').where({ workspace_id: workspaceId }).where('id', '>', afterId).orderBy('id').limit(limit);
      return rows.map(withFullMessage);
    },

    async newestId(executor: Knex = db): Promise<string> {
      const row = await executor('events').max<{ max: string | null }[]>({ max: 'id' });
      return String(row[0]?.max ?? 0);
    },

    /** For each event (of this workspace) its conversions, the conversion it repeated, and its rule's age: by primary key and index, per event. */
    async outcomes(workspaceId: string, eventIds: readonly string[], executor: Knex = db): Promise<EventOutcomeFacts[]> {
      if (eventIds.length === 0) return [];
      const { rows } = await executor.raw<{ rows: { event_id: string; conversions: EventOutcomeFacts['conversions']; duplicate_of: EventOutcomeFacts['duplicateOf']; rule_created_at: Date | null }[] }>(
        OUTCOMES_SQL,
        [workspaceId, [...eventIds]],
      );
      return rows.map((row) => ({ eventId: row.event_id, conversions: row.conversions, duplicateOf: row.duplicate_of, ruleCreatedAt: row.rule_created_at }));
    },

    async find(workspaceId: string, ids: readonly string[], executor: Knex = db): Promise<EventRow[]> {
      if (ids.length === 0) return [];
      const rows: EventRow[] = await executor('events').where({ workspace_id: workspaceId }).whereIn('id', [...ids]);
      return rows.map(withFullMessage);
    },
  };
}

export type EventStreamRepository = ReturnType<typeof createEventStreamRepository>;
