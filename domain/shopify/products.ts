import { record, text } from '../webhooks/webhook-json';

/** Segment's product fields (its e-commerce spec), which `readContents` (domain/tiktok-event.ts) turns into TikTok's contents. */
export interface SegmentProduct {
  product_id?: string;
  variant?: string;
  sku?: string;
  name?: string;
  brand?: string;
  price?: number;
  quantity?: number;
}

/** Shopify's prices are decimal strings ("19.99"). */
export function amount(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined || !/^-?\d+(\.\d+)?$/.test(raw)) return undefined;
  return Number(raw);
}

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : amount(value);
  return number !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** A line item (order, checkout or cart) as a product: its product and variant IDs, SKU, title, vendor, unit price and quantity. */
export function lineItemProduct(item: unknown, quantity?: number): SegmentProduct | undefined {
  const line = record(item);
  if (line === undefined) return undefined;
  const product: SegmentProduct = {
    product_id: text(line.product_id),
    variant: text(line.variant_id),
    sku: text(line.sku),
    name: text(line.title) ?? text(line.name),
    brand: text(line.vendor),
    price: amount(line.price),
    quantity: quantity ?? wholeNumber(line.quantity),
  };
  return Object.fromEntries(Object.entries(product).filter(([, value]) => value !== undefined)) as SegmentProduct;
}

export function lineItems(resource: Record<string, unknown>): unknown[] {
  return Array.isArray(resource.line_items) ? resource.line_items : [];
}

export function products(resource: Record<string, unknown>): SegmentProduct[] {
  return lineItems(resource).flatMap((item) => lineItemProduct(item) ?? []);
}
