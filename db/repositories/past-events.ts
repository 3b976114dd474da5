import type { Knex } from 'knex';
import type { Client } from 'pg';
import { conversionKey, conversionsFor, type MappingRule, type StoredEvent } from '../../domain/rule-conversions';
import type { TrackedMessage } from '../../domain/message';
import { fullMessage, type MessageColumns } from '../event-message';
import type { ConversionRuleRow, PastEventRunRow, PastEventRunStatus } from '../types';
import { toRule, type ConversionRule } from './conversion-rules';

/** Which stored events a run maps: the rule's track events received in [since, until), with an event time since `since`. */
export interface PastEventWindow {
  workspaceId: string;
  sourceEvent: string;
  since: Date;
  until: Date;
}

/**
 * The last event a run has done, in the order of the `events_received` index; its time as PostgreSQL's text, which keeps
 * the microseconds a Date would drop (the next page would start at the same events again).
 */
export interface PastEventCursor {
  receivedAt: string;
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

/** A run's row, with its cursor's time as text (`cursor_at`). */
type RunRow = PastEventRunRow & { cursor_at: string | null };

function toRun(row: RunRow): PastEventRun {
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
    cursor: row.cursor_at === null || row.cursor_event_id === null ? null : { receivedAt: row.cursor_at, eventId: String(row.cursor_event_id) },
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
    SELECT e.id::text AS row_id, e.received_on::text, e.message, e.message_id, e.type, e.event_name, e.user_id, e.anonymous_id, e.occurred_at, e.received_at::text AS received_text FROM events e
    WHERE e.workspace_id = $1 AND e.received_at >= $3 AND e.received_at < $4 AND e.type = 'track' AND e.event_name = $2
      AND e.occurred_at >= $3 AND e.stripped_at IS NULL
      AND (e.received_at, e.id) > ($5::timestamptz, $6::bigint)
    ORDER BY e.received_at, e.id
    LIMIT $7`,
};

const EXISTING = {
  name: 'past-events-existing',
  text: `
    SELECT c.tiktok_event, c.event_id
    FROM jsonb_to_recordset($2::jsonb) AS k(tiktok_event text, event_id text)
    JOIN conversions c ON c.workspace_id = $1 AND c.tiktok_event = k.tiktok_event AND c.event_id = k.event_id`,
};

const LOCK_RUN = { name: 'past-events-lock-run', text: 'SELECT *, cursor_received_at::text AS cursor_at FROM past_event_runs WHERE id = $1 FOR UPDATE' };

/** The rule as it is now, read after the lock (so after any batch that held it). */
const RULE = { name: 'past-events-rule', text: 'SELECT * FROM conversion_rules WHERE workspace_id = $1 AND source_event = $2' };

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
  const { rows } = await q.query<MessageColumns & { row_id: string; received_on: string; message: Record<string, unknown>; occurred_at: Date; received_text: string }>({
    ...PAGE,
    // No cursor yet: from before every event.
    values: [window.workspaceId, window.sourceEvent, window.since, window.until, after?.receivedAt ?? '-infinity', after?.eventId ?? '0', limit],
  });
  const tail = rows.at(-1);
  return {
    events: rows.map((r) => ({ message: fullMessage(r) as unknown as TrackedMessage, occurredAt: new Date(r.occurred_at), rowId: r.row_id, receivedOn: r.received_on, fromAppKey: false })),
    last: tail === undefined ? null : { receivedAt: tail.received_text, eventId: tail.row_id },
  };
}

/** Runs of "send past events" and the stored events they read. */
export function createPastEventRepository(db: Knex) {
  return {
    readPage,

    /** Locks a run for the batch that moves it on, in that batch's transaction; with its rule, undefined when removed. */
    async lockRun(q: Queryable, runId: string): Promise<{ run: PastEventRun; rule: ConversionRule | undefined } | undefined> {
      const [row] = (await q.query<RunRow>({ ...LOCK_RUN, values: [runId] })).rows;
      if (row === undefined) return undefined;
      const [rule] = (await q.query<ConversionRuleRow>({ ...RULE, values: [row.workspace_id, row.source_event] })).rows;
      return { run: toRun(row), rule: rule && toRule(rule) };
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
      // A new run has done nothing yet: no cursor.
      return row && toRun({ ...row, cursor_at: null });
    },

    /** Each rule's latest run, by source event. */
    async latest(workspaceId: string, executor: Knex = db): Promise<Map<string, PastEventRun>> {
      const rows: RunRow[] = await executor('past_event_runs').distinctOn('source_event').select('*', executor.raw('cursor_received_at::text AS cursor_at')).where({ workspace_id: workspaceId }).orderBy([{ column: 'source_event' }, { column: 'id', order: 'desc' }]);
      return new Map(rows.map((row) => [row.source_event, toRun(row)]));
    },
  };
}

export type PastEventRepository = ReturnType<typeof createPastEventRepository>;
