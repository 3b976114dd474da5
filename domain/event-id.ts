import { meaningfulIdentifier } from './identifiers';
import type { TrackedMessage } from './message';

/**
 * The deduplication ID shared with the browser pixel (spec §4.4): `properties.event_id` when given, else
 * `properties.eventId` (as several SDKs and TikTok's pixel helper spell it); for a purchase its `order_id`; otherwise
 * the message's `messageId`, which is unique per workspace. Deterministic, never random.
 */
export function deriveEventId(message: TrackedMessage, purchase: boolean): string {
  const explicit = meaningfulIdentifier(message.properties?.event_id) ?? meaningfulIdentifier(message.properties?.eventId);
  if (explicit !== undefined) return explicit;
  const orderId = purchase ? meaningfulIdentifier(message.properties?.order_id) : undefined;
  return orderId ?? message.messageId;
}
