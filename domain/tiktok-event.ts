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
  'ttclid', 'ttp', '_ttp', 'event_id', 'eventId', 'external_id', 'externalId', 'url', 'referrer', 'value', 'revenue', 'total', 'currency', 'products', 'contents',
  'content_type', 'contentType', 'content_ids', 'contentIds', 'num_items', 'numItems',
]);

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A list of items, or a single item object. */
function items(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  return record(value) === undefined ? undefined : [value];
}

/**
 * TikTok-shaped `contents` (content_id, content_name, …), else Segment's `products` (product_id, sku, name, category,
 * price, quantity); either may be a list or a single object. `contents` wins when both are sent: it is what the
 * sender wrote for TikTok, and what its value adds up to.
 */
export function readContents(properties: Record<string, unknown>): TikTokContent[] | undefined {
  const list = items(properties.contents) ?? items(properties.products);
  if (list === undefined) return undefined;
  const contents = list.flatMap((item): TikTokContent[] => {
    const product = record(item);
    if (product === undefined) return [];
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

const CONTENT_TYPES = ['product', 'product_group'] as const;

/** The sender's `content_type` when it is one TikTok knows (a `product_group` sender's IDs are item groups). */
function readContentType(properties: Record<string, unknown>): TikTokProperties['content_type'] {
  const raw = text(properties.content_type ?? properties.contentType)?.toLowerCase();
  return CONTENT_TYPES.find((type) => type === raw);
}

/** `content_ids` as strings: a list, or a single ID. */
function readContentIds(properties: Record<string, unknown>): string[] | undefined {
  const raw = properties.content_ids ?? properties.contentIds;
  const ids = (Array.isArray(raw) ? raw : [raw]).map(text).filter((id): id is string => id !== undefined);
  return ids.length > 0 ? ids : undefined;
}

function readNumItems(properties: Record<string, unknown>): number | undefined {
  const raw = properties.num_items ?? properties.numItems;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const count = Number(raw);
  return Number.isInteger(count) && count >= 0 ? count : undefined;
}

/** How many items the contents with an ID hold: each one's quantity, 1 when it gives none. */
function unitsOf(contents: readonly TikTokContent[]): number {
  return contents.reduce((sum, content) => sum + (content.content_id === undefined ? 0 : (content.quantity ?? 1)), 0);
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

/**
 * The event's properties. When the sender gives `contents` or `products` but no `content_ids` / `num_items`, they are
 * derived from the contents: `content_ids` as RudderStack derives them (rudder-transformer @ c98d160,
 * `src/v0/destinations/tiktok_ads/transformV2.js`: the contents' IDs in order; it spells them `contents_ids`, TikTok's
 * field is `content_ids`, reference §1.4), which TikTok needs to match a catalog (video shopping ads). `num_items` is
 * the number of items, not of lines (Segment's TikTok destination describes it as "Number of items" and each content's
 * `quantity` as "Number of items": action-destinations, `tiktok-conversions/reportWebEvent/fields/common_fields.ts`),
 * so 2 + 1 counts 3, where RudderStack counted the lines.
 */
function eventProperties(message: TrackedMessage, facts: ConversionFacts): TikTokProperties {
  const source = message.properties ?? {};
  const properties: TikTokProperties = facts.custom ? customProperties(source) : {};
  if (facts.value !== null) properties.value = facts.value;
  if (facts.currency !== null) properties.currency = facts.currency;
  const contents = readContents(source);
  if (contents !== undefined) properties.contents = contents;
  const idsInContents = contents?.flatMap((content) => (content.content_id === undefined ? [] : [content.content_id]));
  const derived = idsInContents !== undefined && idsInContents.length > 0 ? idsInContents : undefined;
  const contentIds = readContentIds(source) ?? derived;
  if (contentIds !== undefined) properties.content_ids = contentIds;
  const contentType = readContentType(source) ?? (contents !== undefined || contentIds !== undefined ? 'product' : undefined);
  if (contentType !== undefined) properties.content_type = contentType;
  const numItems = readNumItems(source) ?? (derived === undefined ? undefined : unitsOf(contents ?? []));
  if (numItems !== undefined) properties.num_items = numItems;
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
