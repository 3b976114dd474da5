import { isAppMessage, type TrackedMessage } from './message';
import type { TikTokEventSource, TikTokLead } from './tiktok-wire';

/** Where a rule sends its conversions: one of TikTok's event sources, or `auto` (see `eventSourceFor`). */
export type RuleDestination = 'auto' | TikTokEventSource;

/** Longer is not a CRM's record ID (TikTok states no limit: UNVERIFIED). */
const MAX_LEAD_TEXT = 256;

/**
 * A sale or contact that happened off the website, in a store or on the phone: the sender says so with
 * `context.channel: "offline"` (the Shopify mapping does for a point-of-sale order).
 */
export function happenedOffline(message: TrackedMessage): boolean {
  return message.context?.channel === 'offline';
}

/**
 * The TikTok event source a conversion goes to: the rule's, or with `auto` an app event (sent with an app key, or
 * with an app's context) to the app, an event that happened offline to the Offline Event Set, anything else to the
 * pixel. CRM only when the rule chooses it.
 */
export function eventSourceFor(destination: RuleDestination, message: TrackedMessage, fromAppKey: boolean): TikTokEventSource {
  if (destination !== 'auto') return destination;
  if (fromAppKey || isAppMessage(message)) return 'app';
  return happenedOffline(message) ? 'offline' : 'web';
}

/** Offline and CRM events carry no click: TikTok matches them on the person (hashed email, phone, external ID). */
export function matchedOnPerson(source: TikTokEventSource): boolean {
  return source === 'offline' || source === 'crm';
}

function leadText(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return text !== '' && text.length <= MAX_LEAD_TEXT ? text : undefined;
}

/** A CRM event's lead (reference §1.2 `lead`): `properties.lead_id`, and the CRM's name from `properties.lead_event_source`. */
export function readLead(message: TrackedMessage): TikTokLead | undefined {
  const leadId = leadText(message.properties?.lead_id);
  if (leadId === undefined) return undefined;
  const source = leadText(message.properties?.lead_event_source);
  return source === undefined ? { lead_id: leadId } : { lead_id: leadId, lead_event_source: source };
}
