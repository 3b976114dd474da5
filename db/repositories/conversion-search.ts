import type { Knex } from 'knex';
import type { ConversionHistoryRow, ConversionRow, ConversionStatus } from '../types';

export interface ConversionSearch {
  status?: ConversionStatus;
  reason?: string;
  tiktokEvent?: string;
  /** event_time in [from, to). */
  from?: Date;
  to?: Date;
  /** An event_id (the order ID for purchases), a conversion ID, a user ID or an anonymous ID. */
  text?: string;
  /** TikTok events the workspace converts to: lets the event_id search use the (workspace, TikTok event, event_id) key. */
  knownTiktokEvents: readonly string[];
  limit: number;
  /** Keyset: conversions strictly older than this (event_time, id), newest first. */
  before?: { eventTime: Date; id: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The console's conversions table: filters, search and keyset paging on the `conversions_by_event_time` index. */
export function createConversionSearchRepository(db: Knex) {
  return {
    async search(workspaceId: string, q: ConversionSearch, executor: Knex = db): Promise<ConversionRow[]> {
      const builder = executor('conversions as c').where('c.workspace_id', workspaceId);
      if (q.status) builder.where('c.status', q.status);
      if (q.reason) builder.where('c.reason', q.reason);
      if (q.tiktokEvent) builder.where('c.tiktok_event', q.tiktokEvent);
      if (q.from) builder.where('c.event_time', '>=', q.from);
      if (q.to) builder.where('c.event_time', '<', q.to);
      if (q.before) builder.whereRaw('(c.event_time, c.id) < (?, ?)', [q.before.eventTime, q.before.id]);
      const text = q.text;
      if (text !== undefined) {
        builder.where((match) => {
          match
            .where((byEventId) => {
              void byEventId.whereIn('c.tiktok_event', [...q.knownTiktokEvents]).andWhere('c.event_id', text);
            })
            .orWhere('c.click_anonymous_id', text)
            .orWhereIn(
              'c.event_row_id',
              executor('events')
                .where('workspace_id', workspaceId)
                .andWhere((who) => {
                  void who.where('user_id', text).orWhere('anonymous_id', text);
                })
                .select('id'),
            );
          if (UUID.test(text)) match.orWhere('c.id', text);
        });
      }
      return builder.orderBy([{ column: 'c.event_time', order: 'desc' }, { column: 'c.id', order: 'desc' }]).limit(q.limit).select('c.*');
    },

    /** The conversion with its event's user ID, anonymous ID and received time; undefined when not in the workspace. */
    async detail(workspaceId: string, id: string, executor: Knex = db) {
      const row = await executor('conversions as c')
        .leftJoin('events as e', 'e.id', 'c.event_row_id')
        .where({ 'c.workspace_id': workspaceId, 'c.id': id })
        .first<(ConversionRow & { user_id: string | null; anonymous_id: string | null; received_at: Date | null; message: Record<string, unknown> | null }) | undefined>(
          'c.*',
          'e.user_id',
          'e.anonymous_id',
          'e.received_at',
          'e.message',
        );
      return row;
    },

    async history(conversionId: string, executor: Knex = db): Promise<ConversionHistoryRow[]> {
      return executor('conversion_history').where({ conversion_id: conversionId }).orderBy('id');
    },

    /** Events that repeat this conversion's order or event ID (stored, no new conversion). */
    async duplicates(workspaceId: string, conversionId: string, limit = 20, executor: Knex = db) {
      return executor('events')
        .where({ workspace_id: workspaceId, duplicate_of_conversion_id: conversionId })
        .orderBy('id')
        .limit(limit)
        .select<{ id: string; message_id: string; received_at: Date }[]>('id', 'message_id', 'received_at');
    },
  };
}

export type ConversionSearchRepository = ReturnType<typeof createConversionSearchRepository>;
