import { conversionValue, type ValueRule, type ValueWarning } from './conversion-value';
import { deriveEventId } from './event-id';
import { isPurchase } from './event-mapping';
import { eventSourceFor, type RuleDestination } from './event-source';
import type { TrackedMessage } from './message';
import { ruleEvents } from './rule-events';
import type { TikTokEventSource } from './tiktok-wire';
import { conversionPipelineWorkflowId } from './workflow-id';

/** A conversion rule as the mapping reads it. */
export interface MappingRule extends ValueRule {
  sourceEvent: string;
  tiktokEvent: string;
  alsoSendAs: readonly string[];
  destination: RuleDestination;
}

/** A stored event, as a rule maps it. */
export interface StoredEvent {
  message: TrackedMessage;
  occurredAt: Date;
  rowId: string;
  /** The UTC day it was stored on (YYYY-MM-DD): its partition of `events`. */
  receivedOn: string;
  /** Sent with an app key: a mobile-app event whatever its context says. */
  fromAppKey: boolean;
}

/** A conversion a rule makes of a stored event, to record. */
export interface RuleConversion {
  eventRowId: string;
  eventReceivedOn: string;
  /** The event's user and anonymous IDs, kept by the conversion when its event is gone (erasure finds it by them). */
  userId: string | null;
  anonymousId: string | null;
  messageId: string;
  sourceEvent: string;
  tiktokEvent: string;
  eventId: string;
  ruleEventIndex: number;
  eventTime: Date;
  eventSource: TikTokEventSource;
  value: number | null;
  currency: string | null;
  workflowId: string;
  warnings: ValueWarning[];
  /** The order's number as the shop shows it (`order_name`, a Shopify order's `#9074`), if the event gives one. */
  orderName: string | null;
}

/** An event whose conversion (same TikTok event and event_id) already exists: it repeats that conversion. */
export interface RepeatedConversion {
  eventRowId: string;
  tiktokEvent: string;
  eventId: string;
}

/** Longer is not an order number a person reads. */
const MAX_ORDER_NAME = 100;

function orderNameOf(properties: Record<string, unknown> | undefined): string | null {
  const name = properties?.order_name;
  return typeof name === 'string' && name.trim() !== '' && name.length <= MAX_ORDER_NAME ? name.trim() : null;
}

/** A conversion is unique per workspace, TikTok event and event_id. */
export const conversionKey = (c: { tiktokEvent: string; eventId: string }) => `${c.tiktokEvent}\u0000${c.eventId}`;

/**
 * A conversion for every TikTok event a rule sends a track event as (its own, and its additional events), each under
 * the event_id derived from the message (so TikTok counts a repeat once); an event whose conversion (TikTok event and
 * event_id) came earlier in `stored` repeats it instead. Ingest maps what it stores with it, and "send past events"
 * what was stored before the rule.
 */
export function conversionsFor(workspaceId: string, stored: readonly StoredEvent[], rules: ReadonlyMap<string, MappingRule>) {
  const conversions = new Map<string, RuleConversion>();
  const repeats: RepeatedConversion[] = [];
  for (const { message, occurredAt, rowId, receivedOn, fromAppKey } of stored) {
    const rule = message.type === 'track' && message.event !== undefined ? rules.get(message.event) : undefined;
    if (rule === undefined) continue;
    const { value, currency, warning } = conversionValue(rule, message.properties);
    for (const { tiktokEvent, eventId, index } of ruleEvents(rule, deriveEventId(message, isPurchase(rule.sourceEvent, rule.tiktokEvent)))) {
      const key = conversionKey({ tiktokEvent, eventId });
      if (conversions.has(key)) {
        repeats.push({ eventRowId: rowId, tiktokEvent, eventId });
        continue;
      }
      conversions.set(key, {
        eventRowId: rowId,
        eventReceivedOn: receivedOn,
        userId: message.userId ?? null,
        anonymousId: message.anonymousId ?? null,
        messageId: message.messageId,
        sourceEvent: rule.sourceEvent,
        tiktokEvent,
        eventId,
        ruleEventIndex: index,
        eventTime: occurredAt,
        eventSource: eventSourceFor(rule.destination, message, fromAppKey),
        value: value ?? null,
        currency: currency ?? null,
        workflowId: conversionPipelineWorkflowId(workspaceId),
        warnings: warning === undefined ? [] : [warning],
        orderName: orderNameOf(message.properties),
      });
    }
  }
  return { candidates: [...conversions.values()], repeats };
}

export type RuleConversions = ReturnType<typeof conversionsFor>;
