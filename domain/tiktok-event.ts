import { shareableProperties } from '../sdk/src/rules/tiktok-properties.js';
import type { TikTokEvent, TikTokProperties, TikTokUser } from './tiktok-wire';
import type { TrackedMessage } from './message';
import { pageReferrer, pageUrl } from './message';
import { isPiiKey, looksLikePii, scrubUrl } from './pii';

export { readContents } from '../sdk/src/rules/tiktok-properties.js';

export interface ConversionFacts {
  tiktokEvent: string;
  /** Whether the TikTok event is one of ours mapped from a standard name, or a custom event sent with its properties. */
  custom: boolean;
  eventId: string;
  eventTime: Date;
  value: number | null;
  currency: string | null;
  /** The page to send when the message names none (a linked visitor's latest page view). */
  fallbackPageUrl?: string;
}

/** Keys that are ours to interpret, never forwarded as custom properties. */
const CONSUMED_KEYS = new Set([
  'ttclid', 'ttp', '_ttp', 'event_id', 'eventId', 'external_id', 'externalId', 'url', 'referrer', 'value', 'revenue', 'total', 'currency', 'products', 'contents',
  'content_type', 'contentType', 'content_ids', 'contentIds', 'num_items', 'numItems',
]);

/** Scalar custom properties (and arrays of them), with anything that names or looks like personal data left out. */
function customProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const safe = (v: unknown) => typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && !looksLikePii(v));
  for (const [key, value] of Object.entries(properties)) {
    if (CONSUMED_KEYS.has(key) || isPiiKey(key)) continue;
    if (safe(value) || (Array.isArray(value) && value.length > 0 && value.every(safe))) kept[key] = value;
  }
  return kept;
}

/** The event's properties: what the pixel shares (`shareableProperties`), and a custom event's own properties before them. */
function eventProperties(message: TrackedMessage, facts: ConversionFacts): TikTokProperties {
  const source = message.properties ?? {};
  const shared = shareableProperties(source, facts, looksLikePii);
  return facts.custom ? { ...customProperties(source), ...shared } : shared;
}

/** The `data[]` entry TikTok receives for one conversion (spec §4.3); `user` must already hold only hashed PII. */
export function buildTikTokEvent(message: TrackedMessage, facts: ConversionFacts, user: TikTokUser): TikTokEvent {
  const own = scrubUrl(pageUrl(message));
  const url = own ?? scrubUrl(facts.fallbackPageUrl);
  const referrer = own === undefined ? undefined : scrubUrl(pageReferrer(message));
  const event: TikTokEvent = {
    event: facts.tiktokEvent,
    event_time: Math.floor(facts.eventTime.getTime() / 1000),
    event_id: facts.eventId,
    user,
    properties: eventProperties(message, facts),
  };
  if (url !== undefined) event.page = referrer === undefined ? { url } : { url, referrer };
  return event;
}
