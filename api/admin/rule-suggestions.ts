import type { UnmappedEventName } from '../../db/repositories/event-listing';
import { eventMapping, valuedByDefault } from '../../domain/event-mapping';

/** How far back `GET …/conversion-rules/suggestions` looks. */
export const SUGGESTION_DAYS = 7;
export const SUGGESTION_LIMIT = 100;

/** An event name no rule maps, with what `PUT …/conversion-rules/:event` would choose for it. */
export function ruleSuggestion({ eventName, count, lastSeenAt }: UnmappedEventName) {
  const mapping = eventMapping(eventName);
  return {
    event: eventName,
    count,
    lastSeenAt,
    tiktokEvent: mapping.tiktokEvent,
    mapping: mapping.origin,
    value: { source: valuedByDefault(eventName, mapping.tiktokEvent) ? 'order_total' : 'none' },
  };
}
