// The event_id TikTok deduplicates by: one rule for the server (domain/) and the browser tag's pixel (web/src/pixel.ts).
import { meaningfulIdentifier } from './identifiers.js';

/** What of a message its event_id is derived from. */
export interface EventIdSource {
  messageId: string;
  properties?: Record<string, unknown> | undefined;
}

/** Whether a rule's events are purchases, whose `order_id` makes their event_id. */
export function isPurchase(serviceEvent: string, tiktokEvent: string): boolean {
  return serviceEvent === 'purchase' || tiktokEvent === 'CompletePayment' || tiktokEvent === 'Purchase';
}

/**
 * The deduplication ID shared with the browser pixel (spec §4.4): `properties.event_id` when given, else
 * `properties.eventId` (as several SDKs and TikTok's pixel helper spell it); for a purchase its `order_id`; otherwise
 * the message's `messageId`, which is unique per workspace. Deterministic, never random.
 */
export function deriveEventId(message: EventIdSource, purchase: boolean): string {
  const explicit = meaningfulIdentifier(message.properties?.event_id) ?? meaningfulIdentifier(message.properties?.eventId);
  if (explicit !== undefined) return explicit;
  const orderId = purchase ? meaningfulIdentifier(message.properties?.order_id) : undefined;
  return orderId ?? message.messageId;
}

/** One TikTok event a message of a rule is sent as. */
export interface RuleEvent {
  tiktokEvent: string;
  eventId: string;
  /** 0: the rule's own TikTok event; 1, 2, …: its additional events, in the rule's order. */
  index: number;
}

/**
 * The event_id of an additional event: the message's event_id and the TikTok event's name. Only the rule's own event
 * keeps the plain event_id, so TikTok deduplicates it with a pixel that sends the plain one; the browser tag sends
 * each additional event under this event_id too. The overview's count of pixel-shareable event_ids knows this form
 * (`SHAREABLE_COUNT` in db/repositories/conversion-counts.ts).
 */
export function additionalEventId(eventId: string, tiktokEvent: string): string {
  return `${eventId}:${tiktokEvent}`;
}

/** The TikTok events one message of the rule is sent as: the rule's own first, then its additional events. */
export function ruleEvents(rule: { tiktokEvent: string; alsoSendAs: readonly string[] }, eventId: string): RuleEvent[] {
  const additional = rule.alsoSendAs.map((tiktokEvent, i) => ({ tiktokEvent, eventId: additionalEventId(eventId, tiktokEvent), index: i + 1 }));
  return [{ tiktokEvent: rule.tiktokEvent, eventId, index: 0 }, ...additional];
}
