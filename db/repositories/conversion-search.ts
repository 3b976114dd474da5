import type { Knex } from 'knex';
import type { ConversionRow, ConversionStatus } from '../types';
import { additionalEventId } from '../../domain/rule-events';
import { messagePositionColumns, type MessagePosition } from './conversions';

export interface ConversionSearch {
  status?: ConversionStatus;
  reason?: string;
  tiktokEvent?: string;
  /** event_time in [from, to). */
  from?: Date;
  to?: Date;
  /**
   * An event_id (the order ID for purchases; it finds the additional events of the same message too, whose event_id
   * is suffixed), a conversion ID, a user ID or an anonymous ID.
   */
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
    async search(workspaceId: string, q: ConversionSearch, executor: Knex = db): Promise<(ConversionRow & MessagePosition)[]> {
      const builder = executor('conversions as c').where('c.workspace_id', workspaceId);
      if (q.status) builder.where('c.status', q.status);
      if (q.reason) builder.where('c.reason', q.reason);
      if (q.tiktokEvent) builder.where('c.tiktok_event', q.tiktokEvent);
      if (q.from) builder.where('c.event_time', '>=', q.from);
      if (q.to) builder.where('c.event_time', '<', q.to);
      if (q.before) builder.whereRaw('(c.event_time, c.id) < (?, ?)', [q.before.eventTime, q.before.id]);
      const text = q.text;
      if (text !== undefined) {
        // Each way of matching has its own index; an OR of them would scan the workspace's conversions.
        const matches = executor
          .select('id')
          .from('conversions')
          .where('workspace_id', workspaceId)
          .whereIn('tiktok_event', [...q.knownTiktokEvents])
          .whereIn('event_id', [text, ...q.knownTiktokEvents.map((name) => additionalEventId(text, name))])
          .unionAll((byEvent) => {
            void byEvent
              .select('c2.id')
              .from('events as e')
              .join('conversions as c2', 'c2.event_row_id', 'e.id')
              .where('e.workspace_id', workspaceId)
              .andWhere('e.user_id', text);
          })
          .unionAll((byEvent) => {
            void byEvent
              .select('c3.id')
              .from('events as e')
              .join('conversions as c3', 'c3.event_row_id', 'e.id')
              .where('e.workspace_id', workspaceId)
              .andWhere('e.anonymous_id', text);
          });
        if (UUID.test(text)) void matches.unionAll((byId) => void byId.select('id').from('conversions').where({ workspace_id: workspaceId, id: text }));
        builder.whereIn('c.id', matches);
      }
      return builder.orderBy([{ column: 'c.event_time', order: 'desc' }, { column: 'c.id', order: 'desc' }]).limit(q.limit).select('c.*', ...messagePositionColumns(executor, 'c'));
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

  };
}

export type ConversionSearchRepository = ReturnType<typeof createConversionSearchRepository>;
