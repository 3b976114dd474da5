import type { Knex } from 'knex';
import type { ConversionDestination, ConversionRuleRow, ValueSource } from '../types';

export interface ConversionRule {
  sourceEvent: string;
  tiktokEvent: string;
  /** TikTok standard events each matching event is also sent as, each a conversion of its own. */
  alsoSendAs: readonly string[];
  valueSource: ValueSource;
  fixedValue: number | null;
  currency: string | null;
  /** Sent to TikTok by the server only: the tracking tag does not report these events to the browser pixel. */
  serverOnly: boolean;
  /** Where its conversions go: `auto` (app events to the app, offline events to the Offline Event Set, else the pixel), or one TikTok event source. */
  destination: ConversionDestination;
}

/**
 * A rule to store; without `alsoSendAs` it sends its events as its own TikTok event only, without `serverOnly` the
 * pixel may see them too, without `destination` they go where `auto` sends them.
 */
export type RuleInput = Omit<ConversionRule, 'alsoSendAs' | 'serverOnly' | 'destination'> & Partial<Pick<ConversionRule, 'alsoSendAs' | 'serverOnly' | 'destination'>>;

export function toRule(
  row: Pick<ConversionRuleRow, 'source_event' | 'tiktok_event' | 'also_send_as' | 'value_source' | 'fixed_value' | 'currency' | 'server_only' | 'destination'>,
): ConversionRule {
  return {
    sourceEvent: row.source_event,
    tiktokEvent: row.tiktok_event,
    alsoSendAs: row.also_send_as,
    valueSource: row.value_source,
    fixedValue: row.fixed_value,
    currency: row.currency,
    serverOnly: row.server_only,
    destination: row.destination,
  };
}

export function createConversionRuleRepository(db: Knex) {
  return {
    async put(workspaceId: string, rule: RuleInput, executor: Knex = db): Promise<ConversionRule> {
      const values = {
        workspace_id: workspaceId,
        source_event: rule.sourceEvent,
        tiktok_event: rule.tiktokEvent,
        also_send_as: [...(rule.alsoSendAs ?? [])],
        value_source: rule.valueSource,
        fixed_value: rule.fixedValue,
        currency: rule.currency,
        server_only: rule.serverOnly ?? false,
        destination: rule.destination ?? 'auto',
      };
      const [row] = await executor('conversion_rules')
        .insert(values)
        .onConflict(['workspace_id', 'source_event'])
        .merge({ ...values, updated_at: executor.fn.now() })
        .returning('*');
      return toRule(row);
    },

    async remove(workspaceId: string, sourceEvent: string, executor: Knex = db): Promise<boolean> {
      const deleted = await executor('conversion_rules').where({ workspace_id: workspaceId, source_event: sourceEvent }).delete();
      return deleted > 0;
    },

    async list(workspaceId: string, executor: Knex = db): Promise<ConversionRule[]> {
      const rows = await executor('conversion_rules').where({ workspace_id: workspaceId }).orderBy('source_event');
      return rows.map(toRule);
    },

    async find(workspaceId: string, sourceEvent: string, executor: Knex = db): Promise<ConversionRule | undefined> {
      const row = await executor('conversion_rules').where({ workspace_id: workspaceId, source_event: sourceEvent }).first();
      return row && toRule(row);
    },

    /** The rules for the given event names, keyed by service event name. */
    async forEvents(workspaceId: string, eventNames: readonly string[], executor: Knex = db): Promise<Map<string, ConversionRule>> {
      if (eventNames.length === 0) return new Map();
      const rows = await executor('conversion_rules').where({ workspace_id: workspaceId }).whereIn('source_event', [...new Set(eventNames)]);
      return new Map(rows.map((row) => [row.source_event, toRule(row)]));
    },
  };
}

export type ConversionRuleRepository = ReturnType<typeof createConversionRuleRepository>;
