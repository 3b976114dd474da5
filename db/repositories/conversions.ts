import type { Knex } from 'knex';
import type { ConversionRow, ConversionStatus, ConversionWarning } from '../types';
import { conversionIdsMatching, type TextMatch } from './conversion-text-match';
import { whereDiagnostic, type DiagnosticFilter } from './diagnostics';
import type { TikTokEventSource } from '../../domain/tiktok-wire';

export interface NewConversion {
  eventRowId: string;
  /** The UTC day its event was stored on: the event's partition. */
  eventReceivedOn: string;
  userId: string | null;
  anonymousId: string | null;
  messageId: string;
  sourceEvent: string;
  tiktokEvent: string;
  eventId: string;
  /** Which of its rule's TikTok events it is: 0 (the default) the rule's own, 1… its additional events. */
  ruleEventIndex?: number;
  eventTime: Date;
  eventSource: TikTokEventSource;
  value: number | null;
  currency: string | null;
  workflowId: string;
  /** Found at ingest without stopping the conversion, e.g. `value_unreadable`. */
  warnings?: ConversionWarning[];
  /** The order's number as the shop shows it (a Shopify order's `#9074`). */
  orderName?: string | null;
}

export interface CreatedConversion {
  id: string;
  workflowId: string;
  workspaceId: string;
  tiktokEvent: string;
  eventId: string;
}

export interface ConversionOutcome {
  status: Exclude<ConversionStatus, 'pending'>;
  reason?: string | null;
  tiktokCode?: number | null;
  tiktokMessage?: string | null;
  tiktokRequestId?: string | null;
}

/** The conversions waiting to be delivered (`pending`), in total and for the workspaces that matter most. */
export interface PendingBacklog {
  total: number;
  /** Of the oldest pending conversion, by the database's clock; 0 when none is pending. */
  oldestAgeSeconds: number;
  /** The workspaces with the most pending conversions and those with the oldest, `top` of each. */
  workspaces: { workspaceId: string; pending: number; oldestAgeSeconds: number }[];
}

/**
 * Pending conversions per workspace from the partial index `conversions_claimable` (workspace_id, created_at WHERE
 * status = 'pending'), the totals over all of them, and the `?` workspaces with the most and the `?` with the oldest.
 */
export const PENDING_BACKLOG = `
  WITH per_workspace AS (
    SELECT workspace_id, count(*) AS pending, min(created_at) AS oldest FROM conversions WHERE status = 'pending' GROUP BY workspace_id
  ), ranked AS (
    SELECT *, row_number() OVER (ORDER BY pending DESC, workspace_id) AS by_count, row_number() OVER (ORDER BY oldest, workspace_id) AS by_age,
      sum(pending) OVER () AS total, min(oldest) OVER () AS oldest_overall
    FROM per_workspace
  )
  SELECT workspace_id, pending::int, extract(epoch FROM now() - oldest)::float8 AS age,
    total::float8, extract(epoch FROM now() - oldest_overall)::float8 AS oldest_age
  FROM ranked WHERE by_count <= ? OR by_age <= ? ORDER BY by_count`;

/** Which finished conversions to send again: by ID, by filter, or those that failed because TikTok refused the token. */
export type RequeueSelection =
  | { conversionIds: readonly string[] }
  | RequeueFilter
  | { refusedToken: { codes: readonly number[] } };

/** Finished conversions by what they are; without a status, failed and skipped ones alike. */
export interface RequeueFilter extends DiagnosticFilter {
  status?: 'failed' | 'skipped';
  reason?: string;
  tiktokEvent?: string;
  createdFrom?: Date;
  createdTo?: Date;
  /** event_time in [eventFrom, eventTo): the console's period. */
  eventFrom?: Date;
  eventTo?: Date;
  /** The console's search. */
  text?: TextMatch;
  /** Left out, as sending them again would only skip them again: these reasons, and `unlessRuleMaps` unless a rule maps the event now. */
  skipAgain?: { always: readonly string[]; unlessRuleMaps: string; ruleEvents: readonly string[] };
  /** At most this many, oldest event first. */
  limit?: number;
}

/** The IDs of a workspace's finished conversions a filter selects. */
function filteredIds(executor: Knex, workspaceId: string, filter: RequeueFilter): Knex.QueryBuilder {
  const ids = executor('conversions').select('id').where({ workspace_id: workspaceId });
  whereDiagnostic(ids, 'conversions', filter);
  if (filter.status !== undefined) void ids.where({ status: filter.status });
  else void ids.whereIn('status', ['failed', 'skipped']);
  if (filter.reason !== undefined) void ids.where({ reason: filter.reason });
  if (filter.tiktokEvent !== undefined) void ids.where({ tiktok_event: filter.tiktokEvent });
  if (filter.createdFrom !== undefined) void ids.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) void ids.where('created_at', '<', filter.createdTo);
  if (filter.eventFrom !== undefined) void ids.where('event_time', '>=', filter.eventFrom);
  if (filter.eventTo !== undefined) void ids.where('event_time', '<', filter.eventTo);
  if (filter.text !== undefined) void ids.whereIn('id', conversionIdsMatching(executor, workspaceId, filter.text));
  const skipAgain = filter.skipAgain;
  if (skipAgain !== undefined) {
    void ids.whereRaw('(reason IS NULL OR NOT (reason = ANY(?::text[])))', [[...skipAgain.always]]);
    void ids.whereRaw('NOT (reason IS NOT DISTINCT FROM ? AND NOT (source_event = ANY(?::text[])))', [skipAgain.unlessRuleMaps, [...skipAgain.ruleEvents]]);
  }
  if (filter.limit !== undefined) void ids.orderBy('event_time').limit(filter.limit);
  return ids;
}

export interface ListConversionsQuery {
  status?: ConversionStatus;
  source?: ConversionRow['event_source'];
  limit: number;
  /** Returns conversions created before this one (cursor paging, newest first). */
  before?: { createdAt: Date; id: string };
}

/** Which of the conversions made from one message a conversion is, in its rule's order ("1 of 2"). */
export interface MessagePosition {
  message_position: number;
  message_conversions: number;
}

/** The MessagePosition columns of the conversions selected under `table` (its name or alias). */
export function messagePositionColumns(executor: Knex, table: string): Knex.Raw[] {
  const sameMessage = 'FROM conversions s WHERE s.event_row_id = ??';
  return [
    executor.raw(`(SELECT count(*)::int ${sameMessage} AND s.rule_event_index <= ??) AS message_position`, [`${table}.event_row_id`, `${table}.rule_event_index`]),
    executor.raw(`(SELECT count(*)::int ${sameMessage}) AS message_conversions`, [`${table}.event_row_id`]),
  ];
}

/** A conversion made from the same message as another, for that one's detail. */
export type MessageConversion = Pick<ConversionRow, 'id' | 'tiktok_event' | 'event_id' | 'status' | 'rule_event_index'>;

export function createConversionRepository(db: Knex) {
  return {
    async find(id: string, executor: Knex = db): Promise<ConversionRow | undefined> {
      return executor('conversions').where({ id }).first();
    },

    async findInWorkspace(workspaceId: string, id: string, executor: Knex = db): Promise<ConversionRow | undefined> {
      return executor('conversions').where({ workspace_id: workspaceId, id }).first();
    },

    /** Every conversion made from the message stored as `eventRowId`, in its rule's order. */
    async ofMessage(workspaceId: string, eventRowId: string, executor: Knex = db): Promise<MessageConversion[]> {
      return executor('conversions')
        .where({ workspace_id: workspaceId, event_row_id: eventRowId })
        .orderBy('rule_event_index')
        .select('id', 'tiktok_event', 'event_id', 'status', 'rule_event_index');
    },

    async list(workspaceId: string, query: ListConversionsQuery, executor: Knex = db): Promise<(ConversionRow & MessagePosition)[]> {
      const builder = executor('conversions').select('conversions.*', ...messagePositionColumns(executor, 'conversions')).where({ workspace_id: workspaceId });
      if (query.status) builder.where({ status: query.status });
      if (query.source) builder.where({ event_source: query.source });
      if (query.before) {
        builder.whereRaw('(created_at, id) < (?, ?)', [query.before.createdAt, query.before.id]);
      }
      return builder.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(query.limit);
    },

    /** How many finished conversions a filter selects (what a send-again by that filter would put back). */
    async countFiltered(workspaceId: string, filter: Omit<RequeueFilter, 'limit'>, executor: Knex = db): Promise<number> {
      const [row] = await executor.from(filteredIds(executor, workspaceId, filter).as('f')).count<{ count: string }[]>({ count: '*' });
      return Number(row?.count ?? 0);
    },

    /**
     * Sends finished conversions through their workspace's group workflow again: pending, with their request rebuilt
     * from the current identity and settings. Only `failed` and `skipped` ones: a delivered conversion is never sent
     * twice. Returns the IDs put back.
     */
    async requeue(workspaceId: string, selection: RequeueSelection, workflowId: string, executor: Knex = db): Promise<string[]> {
      const builder = executor('conversions').where({ workspace_id: workspaceId });
      if ('conversionIds' in selection) {
        builder.whereIn('id', [...selection.conversionIds]).whereIn('status', ['failed', 'skipped']);
      } else if ('refusedToken' in selection) {
        builder.whereRaw("((status = 'failed' AND tiktok_code = ANY(?)) OR (status = 'skipped' AND reason = 'tiktok_reauthorization_required'))", [
          [...selection.refusedToken.codes],
        ]);
      } else {
        builder.whereIn('id', filteredIds(executor, workspaceId, selection));
      }
      const rows = await builder
        .update({
          status: 'pending',
          reason: null,
          workflow_id: workflowId,
          workflow_run_id: null,
          claim_id: null,
          claimed_until: null,
          request_payload: null,
          sent_without_click: false,
          response_body: null,
          tiktok_code: null,
          tiktok_message: null,
          tiktok_request_id: null,
          completed_at: null,
          updated_at: executor.fn.now(),
        })
        .returning('id');
      return rows.map((row) => row.id);
    },

    async update(id: string, changes: Partial<ConversionRow>, executor: Knex = db): Promise<void> {
      await executor('conversions').where({ id }).update({ ...changes, updated_at: executor.fn.now() });
    },

    async incrementAttempts(id: string, executor: Knex = db): Promise<number> {
      const [row] = await executor('conversions').where({ id }).increment('attempts', 1).returning(['attempts']);
      return row.attempts;
    },

    /** Records the final outcome once: a conversion that already left `pending` keeps its first outcome. */
    async finish(id: string, outcome: ConversionOutcome, executor: Knex = db): Promise<boolean> {
      const updated = await executor('conversions')
        .where({ id, status: 'pending' })
        .update({
          status: outcome.status,
          reason: outcome.reason ?? null,
          tiktok_code: outcome.tiktokCode ?? null,
          tiktok_message: outcome.tiktokMessage ?? null,
          tiktok_request_id: outcome.tiktokRequestId ?? null,
          completed_at: executor.fn.now(),
          updated_at: executor.fn.now(),
        });
      return updated > 0;
    },

    /**
     * The backlog, for every scrape of the worker's `/metrics`: one pass over the partial index of pending conversions
     * (`conversions_claimable`, workspace and creation time; an index-only scan), so its cost follows the backlog,
     * never the table.
     */
    async pendingBacklog(top: number, executor: Knex = db): Promise<PendingBacklog> {
      const { rows } = await executor.raw<{ rows: { workspace_id: string; pending: number; age: number; total: number; oldest_age: number }[] }>(PENDING_BACKLOG, [top, top]);
      const ages = (seconds: number) => Math.max(0, seconds);
      return {
        total: rows[0]?.total ?? 0,
        oldestAgeSeconds: ages(rows[0]?.oldest_age ?? 0),
        workspaces: rows.map((row) => ({ workspaceId: row.workspace_id, pending: row.pending, oldestAgeSeconds: ages(row.age) })),
      };
    },

    /** Conversions of every workspace now `failed` with `internal_error` (a partial index keeps this cheap to ask often). */
    async countInternalErrors(executor: Knex = db): Promise<number> {
      const row = await executor('conversions').where({ status: 'failed', reason: 'internal_error' }).count<{ count: string }>('* as count').first();
      return Number(row?.count ?? 0);
    },
  };
}

export type ConversionRepository = ReturnType<typeof createConversionRepository>;
