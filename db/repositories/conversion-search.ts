import type { Knex } from 'knex';
import { fullMessage, type MessageColumns } from '../event-message';
import type { ConversionRow, ConversionStatus } from '../types';
import { conversionIdsMatching, type TextMatch } from './conversion-text-match';
import { messagePositionColumns, type MessagePosition } from './conversions';
import { whereDiagnostic, type DiagnosticFilter } from './diagnostics';

/** Its event's columns beside a conversion (all null once its day is gone). */
interface EventColumns {
  user_id: string | null;
  anonymous_id: string | null;
  received_at: Date | null;
  message: Record<string, unknown> | null;
  event_message_id: string | null;
  event_type: string | null;
  event_name: string | null;
  stripped_at: Date | null;
}

export interface ConversionSearch extends DiagnosticFilter {
  status?: ConversionStatus;
  reason?: string;
  tiktokEvent?: string;
  /** event_time in [from, to). */
  from?: Date;
  to?: Date;
  /** A typed search: an event_id or order ID, a conversion ID, a person's user ID, anonymous ID or email. */
  text?: TextMatch;
  limit: number;
  /** Keyset: conversions strictly older than this (event_time, id), newest first. */
  before?: { eventTime: Date; id: string };
}

const NAMED_IDS = 50;

/** The console's conversions table: filters, search and keyset paging on the `conversions_by_event_time` index. */
export function createConversionSearchRepository(db: Knex) {
  return {
    async search(workspaceId: string, q: ConversionSearch, executor: Knex = db): Promise<(ConversionRow & MessagePosition)[]> {
      const builder = executor('conversions as c').where('c.workspace_id', workspaceId);
      if (q.status) builder.where('c.status', q.status);
      if (q.reason) builder.where('c.reason', q.reason);
      if (q.tiktokEvent) builder.where('c.tiktok_event', q.tiktokEvent);
      if (q.from) builder.where('c.event_time', '>=', q.from);
      if (q.to) builder.where('c.event_time', '<', q.to);
      if (q.before) builder.whereRaw('(c.event_time, c.id) < (?, ?)', [q.before.eventTime, q.before.id]);
      if (q.text !== undefined) builder.whereIn('c.id', conversionIdsMatching(executor, workspaceId, q.text));
      whereDiagnostic(builder, 'c', q);
      return builder.orderBy([{ column: 'c.event_time', order: 'desc' }, { column: 'c.id', order: 'desc' }]).limit(q.limit).select('c.*', ...messagePositionColumns(executor, 'c'));
    },

    /**
     * The user IDs and anonymous IDs stored under `text` in any letter case, `text` itself included: from the visitors
     * and the identity links (each through a `lower()` index), not from the events, where two more indexes would
     * slow every ingest. A user ID linked to nothing is found in its exact case only. The links are read whole before
     * their distinct values (MATERIALIZED): with DISTINCT and LIMIT on the table itself, PostgreSQL walked every user ID
     * link of the workspace in the primary key's order: 105 ms for 600,000 links where this takes 0.6 ms (issue 30).
     */
    async idsNamed(workspaceId: string, text: string, executor: Knex = db): Promise<{ userIds: string[]; anonymousIds: string[] }> {
      const [visitors, users] = await Promise.all([
        executor('visitors').where('workspace_id', workspaceId).whereRaw('lower(anonymous_id) = lower(?)', [text]).limit(NAMED_IDS).pluck('anonymous_id'),
        executor
          .withMaterialized('named', (links) => void links.from('identity_links').where({ workspace_id: workspaceId, from_kind: 'user_id' }).whereRaw('lower(from_value) = lower(?)', [text]).select('from_value'))
          .from('named')
          .distinct()
          .limit(NAMED_IDS)
          .pluck('from_value'),
      ]);
      return { userIds: [...new Set([text, ...(users as string[])])], anonymousIds: [...new Set([text, ...(visitors as string[])])] };
    },

    /** The conversion with its event's user ID, anonymous ID and received time; undefined when not in the workspace. */
    async detail(workspaceId: string, id: string, executor: Knex = db) {
      const row = await executor('conversions as c')
        .leftJoin('events as e', (on) => on.on('e.id', 'c.event_row_id').andOn('e.received_on', 'c.event_received_on'))
        .where({ 'c.workspace_id': workspaceId, 'c.id': id })
        .first<(ConversionRow & EventColumns) | undefined>('c.*', 'e.user_id', 'e.anonymous_id', 'e.received_at', 'e.message', 'e.message_id AS event_message_id', 'e.type AS event_type', 'e.event_name', 'e.stripped_at');
      if (row === undefined) return undefined;
      const { event_message_id, event_type, event_name, stripped_at, message, ...conversion } = row;
      const columns: MessageColumns = { message_id: event_message_id as string, type: event_type as string, event_name, user_id: row.user_id, anonymous_id: row.anonymous_id, stripped_at };
      return { ...conversion, message: message === null ? null : fullMessage({ ...columns, message }) };
    },

  };
}

export type ConversionSearchRepository = ReturnType<typeof createConversionSearchRepository>;
