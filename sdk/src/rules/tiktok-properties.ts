// The event properties the server and the browser tag's pixel (web/src/pixel.ts) both send to TikTok.
import { parseAmount } from './conversion-value.js';

/** One item of an event, as TikTok's `contents` holds it (reference/tiktok-api.md §1.4). */
export interface TikTokContent {
  content_id?: string;
  content_name?: string;
  content_category?: string;
  brand?: string;
  /** Unit price. */
  price?: number;
  /** Integer. */
  quantity?: number;
}

/** The properties of an event that the Events API and the browser pixel both send: its worth, and what it was about. */
export type ShareableProperties = {
  value?: number;
  currency?: string;
  contents?: TikTokContent[];
  content_ids?: string[];
  content_type?: 'product' | 'product_group';
  num_items?: number;
  order_id?: string;
  search_string?: string;
};

/** What the event is worth, as `conversionValue` found it (or as its conversion stored it). */
export interface Worth {
  value?: number | null | undefined;
  currency?: string | null | undefined;
}

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
    const content = {
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
function readContentType(properties: Record<string, unknown>): ShareableProperties['content_type'] {
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

/**
 * The properties the Events API and the browser pixel both send for an event (the server adds a custom event's own
 * properties). When the sender gives `contents` or `products` but no `content_ids` / `num_items`, they are derived
 * from the contents: `content_ids` as RudderStack derives them (rudder-transformer @ c98d160,
 * `src/v0/destinations/tiktok_ads/transformV2.js`: the contents' IDs in order; it spells them `contents_ids`, TikTok's
 * field is `content_ids`, reference §1.4), which TikTok needs to match a catalog (video shopping ads). `num_items` is
 * the number of items, not of lines (Segment's TikTok destination describes it as "Number of items" and each content's
 * `quantity` as "Number of items": action-destinations, `tiktok-conversions/reportWebEvent/fields/common_fields.ts`),
 * so 2 + 1 counts 3, where RudderStack counted the lines. A search text that `isPersonal` finds personal data in is
 * left out (the caller brings the check: the server's reads phone numbers with a library this module cannot import).
 */
export function shareableProperties(source: Record<string, unknown>, worth: Worth, isPersonal: (text: string) => boolean): ShareableProperties {
  const properties: ShareableProperties = {};
  if (worth.value !== null && worth.value !== undefined) properties.value = worth.value;
  if (worth.currency !== null && worth.currency !== undefined) properties.currency = worth.currency;
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
  if (search !== undefined && !isPersonal(search)) properties.search_string = search;
  return properties;
}
