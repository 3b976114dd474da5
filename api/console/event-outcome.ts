import type { EventOutcomeView } from '../../contract/debugger-views';
import type { EventOutcomeFacts } from '../../db/repositories/event-stream';
import { conversionWarning } from '../../domain/rule-advice';

/** Every message type but `track` records who someone is or where they were; only a track event can become a conversion. */
const NOT_A_CONVERSION: Record<string, string> = {
  identify: 'An identify call: it links this person’s IDs and traits, and is not a conversion.',
  page: 'A page view: it records the visit (and a TikTok click ID on its URL), and is not a conversion.',
  screen: 'A screen view: it records the visit in the app, and is not a conversion.',
  group: 'A group call: it records the company or team, and is not a conversion.',
  alias: 'An alias call: it links two IDs of one person, and is not a conversion.',
};

/** An event name as a literal to copy (the console shows what is between backticks as code). */
const literal = (text: string) => `\`${text}\``;

/** What became of an event, as the event debugger shows it: the conversion(s) it became, or why none. */
export function eventOutcome(event: { type: string; eventName: string | null; receivedAt: Date }, facts: Omit<EventOutcomeFacts, 'eventId'> | undefined): EventOutcomeView {
  const conversions = facts?.conversions ?? [];
  if (conversions.length > 0) {
    // No status in the words: the stream shows an event once, while its conversions move on from pending.
    const list = conversions.map((c) => c.tiktokEvent).join(', ');
    return { kind: 'conversions', text: `Became ${conversions.length === 1 ? 'the conversion' : `${conversions.length} conversions:`} ${list}.`, conversions };
  }
  if (facts?.duplicateOf) {
    const { conversionId, messageId, tiktokEvent, sameOrder } = facts.duplicateOf;
    return {
      kind: 'duplicate',
      text: sameOrder
        ? `The same order again: Shopify sends an order when it is placed and again when it is paid. It counts once, as its ${tiktokEvent}, and nothing more was sent to TikTok.`
        : `A repeat of an earlier ${tiktokEvent}: it has the same order ID or event ID, so no new conversion was made and nothing more was sent to TikTok.`,
      conversionId,
      messageId,
      tiktokEvent,
    };
  }
  if (event.type !== 'track') return { kind: 'not_a_conversion', text: NOT_A_CONVERSION[event.type] ?? `A ${event.type} message, not a conversion.` };
  const eventName = event.eventName ?? '';
  if (facts?.ruleCreatedAt == null) {
    return { kind: 'no_rule', text: `No conversion rule matches ${literal(eventName)}: the event is stored, and nothing was sent to TikTok.`, eventName, warning: conversionWarning(eventName) };
  }
  if (facts.ruleCreatedAt > event.receivedAt) {
    return { kind: 'rule_added_later', text: `No conversion rule matched ${literal(eventName)} when it arrived: its rule was added later, and applies to the events after it.`, eventName };
  }
  return { kind: 'no_conversion', text: 'Its rule was in place when it arrived, but no conversion is recorded for it.' };
}
