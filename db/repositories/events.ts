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
      const rows = await executor.raw<{ rows: { id: string; message_id: string }[] }>(
        `INSERT INTO events (workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, message)
         SELECT ?, m.message_id, m.type, m.event_name, m.user_id, m.anonymous_id, m.occurred_at, m.message::jsonb
         FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::text[])
           AS m(message_id, type, event_name, user_id, anonymous_id, occurred_at, message)
         ON CONFLICT (workspace_id, message_id) DO NOTHING
         RETURNING id, message_id`,
        bindings(
          workspaceId,
          events.map((e) => e.messageId),
          events.map((e) => e.type),
          events.map((e) => e.eventName),
          events.map((e) => e.userId),
          events.map((e) => e.anonymousId),
          events.map((e) => e.occurredAt.toISOString()),
          events.map((e) => JSON.stringify(e.message)),
        ),
      );
      return new Map(rows.rows.map((row) => [row.message_id, String(row.id)]));
    },

    /**
     * Points each event at the conversion it repeats (a resent order_id or event_id), in one statement; an event that
     * is that conversion's own is left alone. Returns how many events were marked.
     */
    async markDuplicates(workspaceId: string, repeats: readonly RepeatedConversion[], executor: Knex = db): Promise<number> {
      if (repeats.length === 0) return 0;
      const { rowCount } = await executor.raw<{ rowCount: number | null }>(
        `UPDATE events e SET duplicate_of_conversion_id = c.id
         FROM unnest(?::bigint[], ?::text[], ?::text[]) AS r(event_row_id, tiktok_event, event_id)
         JOIN conversions c ON c.workspace_id = ? AND c.tiktok_event = r.tiktok_event AND c.event_id = r.event_id
         WHERE e.id = r.event_row_id AND c.event_row_id <> r.event_row_id`,
        bindings(
          repeats.map((r) => r.eventRowId),
          repeats.map((r) => r.tiktokEvent),
          repeats.map((r) => r.eventId),
          workspaceId,
        ),
      );
      return rowCount ?? 0;
    },

    async count(workspaceId: string, executor: Knex = db): Promise<number> {
      const [{ count }] = await executor('events').where({ workspace_id: workspaceId }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
