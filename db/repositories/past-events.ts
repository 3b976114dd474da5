import type { Knex } from 'knex';
import type { Client } from 'pg';
import { conversionKey, conversionsFor, type MappingRule, type StoredEvent } from '../../domain/rule-conversions';
import type { TrackedMessage } from '../../domain/message';
import type { PastEventRunRow, PastEventRunStatus } from '../types';

/** Which stored events a run maps: the rule's track events received in [since, until), with an event time since `since`. */
export interface PastEventWindow {
  workspaceId: string;
  sourceEvent: string;
  since: Date;
  until: Date;
}

/** The last event a run has done, in the order of the `events_received` index. */
export interface PastEventCursor {
  receivedAt: Date;
  eventId: string;
}

export interface PastEventPage {
  events: StoredEvent[];
  /** The page's last event; null when it is empty. */
  last: PastEventCursor | null;
}

export interface PastEventRun {
  id: string;
  workspaceId: string;
  sourceEvent: string;
  days: number;
  since: Date;
  until: Date;
  requestedBy: string;
  eventsToSend: number;
  conversionsToSend: number;
  eventsScanned: number;
  conversionsCreated: number;
  cursor: PastEventCursor | null;
  status: PastEventRunStatus;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface PastEventPreview {
  /** Stored events that would become at least one conversion. */
  events: number;
  conversions: number;
}

type Queryable = Pick<Client, 'query'>;

function toRun(row: PastEventRunRow): PastEventRun {
  return {
    id: String(row.id),
    workspaceId: row.workspace_id,
    sourceEvent: row.source_event,
    days: row.days,
    since: new Date(row.since),
    until: new Date(row.until),
    requestedBy: row.requested_by,
    eventsToSend: row.events_to_send,
    conversionsToSend: row.conversions_to_send,
    eventsScanned: row.events_scanned,
    conversionsCreated: row.conversions_created,
    cursor: row.cursor_received_at === null || row.cursor_event_id === null ? null : { receivedAt: new Date(row.cursor_received_at), eventId: String(row.cursor_event_id) },
    status: row.status,
    startedAt: new Date(row.started_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}

// Walks the `events_received` index (workspace_id, received_at, id) INCLUDE (type, event_name); a stripped event has
// lost its message to retention or erasure and maps to nothing.
const PAGE = {
  name: 'past-events-page',
  text: `
    SELECT id::text, message, occurred_at, received_at FROM events
    WHERE workspace_id = $1 AND received_at >= $3 AND received_at < $4 AND type = 'track' AND event_name = $2
      AND occurred_at >= $3 AND stripped_at IS NULL
      AND ($5::timestamptz IS NULL OR (received_at, id) > ($5::timestamptz, $6::bigint))
    ORDER BY received_at, id
    LIMIT $7`,
};

const EXISTING = {
  name: 'past-events-existing',
  text: `
    SELECT c.tiktok_event, c.event_id
    FROM jsonb_to_recordset($2::jsonb) AS k(tiktok_event text, event_id text)
    JOIN conversions c ON c.workspace_id = $1 AND c.tiktok_event = k.tiktok_event AND c.event_id = k.event_id`,
};

const LOCK_RUN = { name: 'past-events-lock-run', text: 'SELECT * FROM past_event_runs WHERE id = $1 FOR UPDATE' };

const ADVANCE_RUN = {
  name: 'past-events-advance-run',
  text: `
    UPDATE past_event_runs SET events_scanned = events_scanned + $2, conversions_created = conversions_created + $3,
      cursor_received_at = coalesce($4, cursor_received_at), cursor_event_id = coalesce($5::bigint, cursor_event_id),
      status = $6, finished_at = CASE WHEN $6 = 'running' THEN NULL ELSE now() END
    WHERE id = $1`,
};

/**
 * The stored events of a window after `after`, up to `limit`, as a rule maps them. Which key sent an event is not
 * stored: an app key's event without `context.app` maps as a web event.
 */
async function readPage(q: Queryable, window: PastEventWindow, after: PastEventCursor | null, limit: number): Promise<PastEventPage> {
  const { rows } = await q.query<{ id: string; message: TrackedMessage; occurred_at: Date; received_at: Date }>({
    ...PAGE,
    values: [window.workspaceId, window.sourceEvent, window.since, window.until, after?.receivedAt ?? null, after?.eventId ?? null, limit],
  });
  const tail = rows.at(-1);
  return {
    events: rows.map((r) => ({ message: r.message, occurredAt: new Date(r.occurred_at), rowId: r.id, fromAppKey: false })),
    last: tail === undefined ? null : { receivedAt: new Date(tail.received_at), eventId: tail.id },
  };
}

/** Runs of "send past events" and the stored events they read. */
export function createPastEventRepository(db: Knex) {
  return {
    readPage,

    /** Locks a run for the batch that moves it on, in that batch's transaction. */
    async lockRun(q: Queryable, runId: string): Promise<PastEventRun | undefined> {
      const { rows } = await q.query<PastEventRunRow>({ ...LOCK_RUN, values: [runId] });
      return rows[0] && toRun(rows[0]);
    },

    /** Counts a batch into its run and moves the run's cursor past it, in the transaction that recorded its conversions. */
    async advanceRun(q: Queryable, runId: string, batch: { scanned: number; created: number; last: PastEventCursor | null; status: PastEventRunStatus }): Promise<void> {
      await q.query({ ...ADVANCE_RUN, values: [runId, batch.scanned, batch.created, batch.last?.receivedAt ?? null, batch.last?.eventId ?? null, batch.status] });
    },

    /**
     * How many of the window's events the rule would make conversions of, and how many conversions: those whose
     * TikTok event and event_id are not recorded yet, each counted once. Reads the window page by page.
     */
    async preview(window: PastEventWindow, rule: MappingRule, pageSize: number): Promise<PastEventPreview> {
      const connection = (await db.client.acquireConnection()) as Client;
      const counted = new Set<string>();
      const preview: PastEventPreview = { events: 0, conversions: 0 };
      try {
        let after: PastEventCursor | null = null;
        do {
          const page = await readPage(connection, window, after, pageSize);
          const { candidates } = conversionsFor(window.workspaceId, page.events, new Map([[rule.sourceEvent, rule]]));
          const fresh = candidates.filter((c) => !counted.has(conversionKey(c)));
          const keys = JSON.stringify(fresh.map((c) => ({ tiktok_event: c.tiktokEvent, event_id: c.eventId })));
          const { rows } = fresh.length === 0 ? { rows: [] } : await connection.query<{ tiktok_event: string; event_id: string }>({ ...EXISTING, values: [window.workspaceId, keys] });
          const existing = new Set(rows.map((r) => conversionKey({ tiktokEvent: r.tiktok_event, eventId: r.event_id })));
          const made = fresh.filter((c) => !existing.has(conversionKey(c)));
          for (const c of fresh) counted.add(conversionKey(c));
          preview.conversions += made.length;
          preview.events += new Set(made.map((c) => c.eventRowId)).size;
          after = page.events.length < pageSize ? null : page.last;
        } while (after !== null);
      } finally {
        await db.client.releaseConnection(connection);
      }
      return preview;
    },

    /** Starts a run; undefined when one of the same rule is running already. */
    async create(run: Pick<PastEventRun, 'workspaceId' | 'sourceEvent' | 'days' | 'since' | 'until' | 'requestedBy' | 'eventsToSend' | 'conversionsToSend'>, executor: Knex = db): Promise<PastEventRun | undefined> {
      const [row] = await executor('past_event_runs')
        .insert({
          workspace_id: run.workspaceId,
          source_event: run.sourceEvent,
          days: run.days,
          since: run.since,
          until: run.until,
          requested_by: run.requestedBy,
          events_to_send: run.eventsToSend,
          conversions_to_send: run.conversionsToSend,
        })
        .onConflict(db.raw("(workspace_id, source_event) WHERE status = 'running'"))
        .ignore()
        .returning('*');
      return row && toRun(row);
    },

    /** Each rule's latest run, by source event. */
    async latest(workspaceId: string, executor: Knex = db): Promise<Map<string, PastEventRun>> {
      const rows = await executor('past_event_runs').distinctOn('source_event').where({ workspace_id: workspaceId }).orderBy([{ column: 'source_event' }, { column: 'id', order: 'desc' }]);
      return new Map(rows.map((row) => [row.source_event, toRun(row)]));
    },
  };
}

export type PastEventRepository = ReturnType<typeof createPastEventRepository>;
