import { TIKTOK_STANDARD_EVENTS } from './event-mapping';

/**
 * How many TikTok events a rule may send each of its events as besides its own (issue 18): `Order Completed` as
 * CompletePayment and also PlaceAnOrder. Each is a conversion of its own, delivered, retried and explained on its own.
 */
export const MAX_ADDITIONAL_EVENTS = 3;

/** One TikTok event a message of a rule is sent as. */
export interface RuleEvent {
  tiktokEvent: string;
  eventId: string;
  /** 0: the rule's own TikTok event; 1, 2, …: its additional events, in the rule's order. */
  index: number;
}

/**
 * The event_id of an additional event: the message's event_id and the TikTok event's name. Only the rule's own event
 * keeps the plain event_id, the one the browser pixel shares, so TikTok deduplicates it with the pixel as before; an
 * additional event is deduplicated with the pixel only when the pixel sends it under this event_id. The overview's
 * count of pixel-shareable event_ids knows this form (`SHAREABLE_COUNT` in db/repositories/conversion-counts.ts).
 */
export function additionalEventId(eventId: string, tiktokEvent: string): string {
  return `${eventId}:${tiktokEvent}`;
}

/** The TikTok events one message of the rule is sent as: the rule's own first, then its additional events. */
export function ruleEvents(rule: { tiktokEvent: string; alsoSendAs: readonly string[] }, eventId: string): RuleEvent[] {
  const additional = rule.alsoSendAs.map((tiktokEvent, i) => ({ tiktokEvent, eventId: additionalEventId(eventId, tiktokEvent), index: i + 1 }));
  return [{ tiktokEvent: rule.tiktokEvent, eventId, index: 0 }, ...additional];
}

const STANDARD_BY_LOWER_CASE = new Map([...TIKTOK_STANDARD_EVENTS].map((name) => [name.toLowerCase(), name]));

function notStandard(name: string): string {
  const meant = STANDARD_BY_LOWER_CASE.get(name.toLowerCase());
  const hint = meant === undefined ? `one of ${[...TIKTOK_STANDARD_EVENTS].sort().join(', ')}` : `did you mean ${meant}?`;
  return `names ${JSON.stringify(name)}, which is not a TikTok standard event: ${hint}`;
}

/**
 * What is wrong with a rule's additional TikTok events, one phrase per problem to follow the field's name; empty when
 * they are fine. At most MAX_ADDITIONAL_EVENTS, each a TikTok standard event, named once, not the rule's own TikTok event.
 */
export function additionalEventProblems(tiktokEvent: string, alsoSendAs: readonly string[]): string[] {
  if (alsoSendAs.length > MAX_ADDITIONAL_EVENTS) return [`must name at most ${MAX_ADDITIONAL_EVENTS} TikTok events, not ${alsoSendAs.length}`];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of alsoSendAs) {
    if (!TIKTOK_STANDARD_EVENTS.has(name)) problems.push(notStandard(name));
    else if (name === tiktokEvent) problems.push(`names ${name}, the rule's own TikTok event, which is sent already`);
    else if (seen.has(name)) problems.push(`names ${name} twice`);
    seen.add(name);
  }
  return problems;
}
