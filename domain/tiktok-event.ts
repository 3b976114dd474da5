import type { TikTokContent, TikTokEvent, TikTokProperties, TikTokUser } from './tiktok-wire';
import type { TrackedMessage } from './message';
import { pageReferrer, pageUrl } from './message';
import { isPiiKey, looksLikePii, scrubUrl } from './pii';
import { parseAmount } from './conversion-value';

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
  'ttclid', 'ttp', '_ttp', 'event_id', 'url', 'referrer', 'value', 'revenue', 'total', 'currency', 'products', 'contents',
]);

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Segment's `products[]` (product_id, sku, name, category, price, quantity) or TikTok-shaped `contents[]`. */
export function readContents(properties: Record<string, unknown>): TikTokContent[] | undefined {
  const items = Array.isArray(properties.products) ? properties.products : Array.isArray(properties.contents) ? properties.contents : undefined;
  if (items === undefined) return undefined;
  const contents = items.flatMap((item): TikTokContent[] => {
    if (typeof item !== 'object' || item === null) return [];
    const product = item as Record<string, unknown>;
    const quantity = Number(product.quantity);
    const content: TikTokContent = {
      content_id: text(product.content_id ?? product.product_id ?? product.sku ?? product.id),
      content_name: text(product.content_name ?? product.name),
      content_category: text(product.content_category ?? product.category),
      brand: text(product.brand),
      price: parseAmount(product.price),
      quantity: Number.isInteger(quantity) && quantity > 0 ? quantity : undefined,
    };
    const defined = Object.fromEntries(Object.entries(content).filter(([, v]) => v !== undefined)) as TikTokContent;
    return Object.keys(defined).length > 0 ? [defined] : [];
  });
  return contents.length > 0 ? contents : undefined;
}

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

function eventProperties(message: TrackedMessage, facts: ConversionFacts): TikTokProperties {
  const source = message.properties ?? {};
  const properties: TikTokProperties = facts.custom ? customProperties(source) : {};
  if (facts.value !== null) properties.value = facts.value;
  if (facts.currency !== null) properties.currency = facts.currency;
  const contents = readContents(source);
  if (contents !== undefined) {
    properties.contents = contents;
    properties.content_type = 'product';
  }
  const orderId = text(source.order_id);
  if (orderId !== undefined) properties.order_id = orderId;
  const search = text(source.query) ?? text(source.search_string);
  if (search !== undefined && !looksLikePii(search)) properties.search_string = search;
  return properties;
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
