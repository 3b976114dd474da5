import { record, text } from '../webhooks/webhook-json';
import { lineItemProduct, lineItems, type SegmentProduct } from './products';

/** Quantities by cart line (`key`, else variant, else line ID). */
export type CartQuantities = Record<string, number>;

/** What the last delivery of a cart left, so that the next tells what was added (a carts/update carries the whole cart). */
export interface CartState {
  /** The message ID of the delivery that left it (topics.ts `shopifyDeliveryId`). */
  deliveryId: string;
  updatedAt: string;
  quantities: CartQuantities;
  /** What that delivery was compared with: Shopify's retry of it is compared with the same, and stored as the same messages. */
  previousQuantities: CartQuantities;
}

export interface CartChange {
  /** Lines whose quantity grew (new lines included), each with the quantity added. */
  added: SegmentProduct[];
  /** Undefined: nothing to remember (a delivery older than the one remembered, or without an `updated_at`). */
  next?: CartState;
}

function lineKey(line: Record<string, unknown>): string | undefined {
  return text(line.key) ?? text(line.variant_id) ?? text(line.id);
}

export function cartQuantities(cart: Record<string, unknown>): CartQuantities {
  const quantities: CartQuantities = {};
  for (const item of lineItems(cart)) {
    const line = record(item);
    const key = line === undefined ? undefined : lineKey(line);
    const quantity = Number(line?.quantity);
    if (key !== undefined && Number.isInteger(quantity) && quantity > 0) quantities[key] = (quantities[key] ?? 0) + quantity;
  }
  return quantities;
}

/**
 * What a carts/update delivery added to the cart, against the state the cart's last delivery left. A cart seen for
 * the first time had nothing before it. A delivery older than the remembered one (`updated_at`; Shopify does not
 * promise order) adds nothing and changes nothing.
 */
export function cartChange(cart: Record<string, unknown>, deliveryId: string, state: CartState | undefined): CartChange {
  const quantities = cartQuantities(cart);
  const updatedAt = text(cart.updated_at) ?? '';
  const retry = state !== undefined && state.deliveryId === deliveryId;
  const stale = state !== undefined && !retry && Date.parse(updatedAt) < Date.parse(state.updatedAt);
  const before = retry ? state.previousQuantities : stale ? quantities : (state?.quantities ?? {});
  const added = lineItems(cart).flatMap((item) => {
    const line = record(item);
    const key = line === undefined ? undefined : lineKey(line);
    if (key === undefined) return [];
    const grew = (quantities[key] ?? 0) - (before[key] ?? 0);
    // A line listed twice is counted once, at its first listing.
    if (grew <= 0 || lineItems(cart).find((other) => lineKey(record(other) ?? {}) === key) !== item) return [];
    return lineItemProduct(item, grew) ?? [];
  });
  if (stale || !Number.isFinite(Date.parse(updatedAt))) return { added };
  return { added, next: { deliveryId, updatedAt, quantities, previousQuantities: before } };
}
