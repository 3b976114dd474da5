import type { Knex } from 'knex';
import type { EventFields, EventRow } from '../types';
import { sameShopifyOrderSql } from './order-repeats';

/** An event as the settings API lists it (never its message, which may hold personal data). */
export interface ListedEvent extends EventFields {
  id: string;
  receivedAt: Date;
  /** Set when the event repeated an order_id / event_id: the conversion it repeats (no new one was made). */
  duplicateOfConversionId: string | null;
}

/** Where a page ended: `received_at` as PostgreSQL prints it (microseconds, which a JS Date would lose) and the row ID. */
export interface EventPosition {
  receivedAt: string;
  id: string;
}

export interface EventPageQuery {
  limit: number;
  before?: EventPosition;
  eventName?: string;
}

export interface UnmappedEventName {
  eventName: string;
  count: number;
  lastSeenAt: Date;
}

type ListedRow = Pick<EventRow, 'id' | 'message_id' | 'type' | 'event_name' | 'user_id' | 'anonymous_id' | 'occurred_at' | 'received_at' | 'duplicate_of_conversion_id'> & {
  /** Only in `page`. */
  received_at_text?: string;
};

const LISTED_COLUMNS: (keyof ListedRow)[] = ['id', 'message_id', 'type', 'event_name', 'user_id', 'anonymous_id', 'occurred_at', 'received_at', 'duplicate_of_conversion_id'];

function toListed(row: ListedRow): ListedEvent {
  return {
    id: String(row.id),
    messageId: row.message_id,
    type: row.type,
    eventName: row.event_name,
    userId: row.user_id,
    anonymousId: row.anonymous_id,
    occurredAt: row.occurred_at,
    receivedAt: row.received_at,
    duplicateOfConversionId: row.duplicate_of_conversion_id,
  };
}

/** The query of `unmappedNames` (exported for the benchmark's EXPLAIN); bindings: workspace, since, workspace, limit. */
export const UNMAPPED_NAMES_SQL = `
  WITH seen AS (
    SELECT event_name, count(*) AS count, max(received_at) AS last_seen_at
    FROM events
    WHERE workspace_id = ? AND received_at >= ? AND type = 'track' AND event_name IS NOT NULL
    GROUP BY event_name
  )
  SELECT s.event_name, s.count, s.last_seen_at FROM seen s
  WHERE NOT EXISTS (SELECT 1 FROM conversion_rules r WHERE r.workspace_id = ? AND r.source_event = s.event_name)
  ORDER BY s.count DESC, s.event_name
  LIMIT ?`;

/** Reads of stored events for people: recent events, event names no rule maps, repeats of a conversion. */
export function createEventListingRepository(db: Knex) {
  return {
    /** Newest first (index `events_received`); `next` is where the following page starts, when there is one. */
    async page(workspaceId: string, query: EventPageQuery, executor: Knex = db): Promise<{ events: ListedEvent[]; next?: EventPosition }> {
      const builder = executor('events')
        .select<ListedRow[]>([...LISTED_COLUMNS, executor.raw('received_at::text AS received_at_text')])
        .where({ workspace_id: workspaceId });
      if (query.eventName !== undefined) builder.where({ event_name: query.eventName });
      if (query.before) builder.whereRaw('(received_at, id) < (?::timestamptz, ?::bigint)', [query.before.receivedAt, query.before.id]);
      const rows = await builder.orderBy([{ column: 'received_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(query.limit + 1);
      const shown = rows.slice(0, query.limit);
      const last = shown.at(-1);
      const next = rows.length > query.limit && last !== undefined ? { receivedAt: last.received_at_text as string, id: String(last.id) } : undefined;
      return { events: shown.map(toListed), next };
    },

    /**
     * Track event names received since `since` that no conversion rule maps, most frequent first. Counted from the
     * `events_received` index alone (it holds type and name), so the cost is the workspace's events of that period,
     * never its whole history; the rules are looked up once per name, not per event.
     */
    async unmappedNames(workspaceId: string, since: Date, limit: number, executor: Knex = db): Promise<UnmappedEventName[]> {
      const { rows } = await executor.raw<{ rows: { event_name: string; count: string; last_seen_at: Date }[] }>(UNMAPPED_NAMES_SQL, [workspaceId, since, workspaceId, limit]);
      return rows.map((row) => ({ eventName: row.event_name, count: Number(row.count), lastSeenAt: row.last_seen_at }));
    },

    /** The events that repeated this conversion's order_id / event_id, oldest first, but for the same Shopify order's other topic. */
    async repeating(conversionId: string, limit: number, executor: Knex = db): Promise<ListedEvent[]> {
      const rows = await executor('events as e')
        .join('conversions as c', 'c.id', 'e.duplicate_of_conversion_id')
        .select<ListedRow[]>(LISTED_COLUMNS.map((column) => `e.${column}`))
        .where('e.duplicate_of_conversion_id', conversionId)
        .whereRaw(`NOT ${sameShopifyOrderSql('e', 'c')}`)
        .orderBy('e.id')
        .limit(limit);
      return rows.map(toListed);
    },
  };
}

export type EventListingRepository = ReturnType<typeof createEventListingRepository>;
