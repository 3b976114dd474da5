import type { Knex } from 'knex';
import { bindings } from './bindings';

export interface NewEvent {
  messageId: string;
  type: string;
  eventName: string | null;
  userId: string | null;
  anonymousId: string | null;
  occurredAt: Date;
  message: Record<string, unknown>;
}

/** An event whose conversion (same TikTok event and event_id) already exists: it repeats that conversion. */
export interface RepeatedConversion {
  eventRowId: string;
  tiktokEvent: string;
  eventId: string;
}

export function createEventRepository(db: Knex) {
  return {
    /**
     * Inserts the events whose `messageId` the workspace has not stored yet; returns the new rows' IDs keyed by
     * `messageId`. A repeated `messageId` is silently skipped, so retried batches are counted once.
     */
    async insertNew(workspaceId: string, events: readonly NewEvent[], executor: Knex = db): Promise<Map<string, string>> {
      if (events.length === 0) return new Map();
      // One JSON document for the whole batch: PostgreSQL parses it once, and no message goes through text-array quoting.
      const rows = events.map((e) => ({ id: e.messageId, type: e.type, name: e.eventName, user: e.userId, anon: e.anonymousId, at: e.occurredAt, message: e.message }));
      const { rows: inserted } = await executor.raw<{ rows: { id: string; message_id: string }[] }>(
        `INSERT INTO events (workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, message)
         SELECT ?, m.id, m.type, m.name, m.user, m.anon, m.at, m.message
         FROM jsonb_to_recordset(?::jsonb) AS m(id text, type text, name text, "user" text, anon text, at timestamptz, message jsonb)
         ON CONFLICT (workspace_id, message_id) DO NOTHING
         RETURNING id, message_id`,
        bindings(workspaceId, JSON.stringify(rows)),
      );
      return new Map(inserted.map((row) => [row.message_id, String(row.id)]));
    },

    /**
     * Points each event at the conversion it repeats (a resent order_id or event_id), in one statement; an event that
     * is that conversion's own is left alone. An event that repeats several (a rule sending it as several TikTok
     * events) points at the first in its rule's order. Returns the IDs of the events marked.
     */
    async markDuplicates(workspaceId: string, repeats: readonly RepeatedConversion[], executor: Knex = db): Promise<string[]> {
      if (repeats.length === 0) return [];
      const { rows } = await executor.raw<{ rows: { id: string }[] }>(
        `UPDATE events e SET duplicate_of_conversion_id = d.conversion_id
         FROM (
           SELECT DISTINCT ON (r.event_row_id) r.event_row_id, c.id AS conversion_id
           FROM unnest(?::bigint[], ?::text[], ?::text[]) AS r(event_row_id, tiktok_event, event_id)
           JOIN conversions c ON c.workspace_id = ? AND c.tiktok_event = r.tiktok_event AND c.event_id = r.event_id
           WHERE c.event_row_id <> r.event_row_id
           ORDER BY r.event_row_id, c.rule_event_index
         ) d
         WHERE e.id = d.event_row_id
         RETURNING e.id`,
        bindings(
          repeats.map((r) => r.eventRowId),
          repeats.map((r) => r.tiktokEvent),
          repeats.map((r) => r.eventId),
          workspaceId,
        ),
      );
      return rows.map((row) => String(row.id));
    },

    async count(workspaceId: string, executor: Knex = db): Promise<number> {
      const [{ count }] = await executor('events').where({ workspace_id: workspaceId }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
