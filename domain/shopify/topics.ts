import { sha256Hex } from '../hashing';
import { record, text } from '../webhooks/webhook-json';
import type { SourceNote, WebhookMessage } from '../webhooks/webhook-message';
import { cartChange, type CartState } from './cart';
import { customerTraits, orderTraits } from './customer-traits';
import { amount, products, type SegmentProduct } from './products';
import { shopifyVisitor, type ShopifyVisitor } from './visitor';

type Json = Record<string, unknown>;

/** One delivery as Shopify's headers describe it (reference/shopify.md "Delivery"). */
export interface ShopifyDelivery {
  sourceId: string;
  /** `X-Shopify-Topic`, e.g. `orders/create`. */
  topic: string;
  /**
   * `X-Shopify-Webhook-Id`, else `X-Shopify-Event-Id`: the message ID, so that a retry is stored once. Shopify's app
   * library documents `webhookId` as "the idempotency key" (shopify-app-remix, authenticate.webhook); its duplicates
   * guide names `X-Shopify-Event-Id` (shopify.dev/docs/apps/build/webhooks/ignore-duplicates). Which of the two stays
   * the same across retries was not verified here; the issue asks for the webhook ID. Orders are counted once either
   * way: the order ID is the conversion's event_id.
   */
  webhookId?: string;
  /** `X-Shopify-Shop-Domain`. */
  shopDomain?: string;
}

export interface ShopifyMapping {
  messages: WebhookMessage[];
  /** carts/update: the cart's state to remember once the messages are stored. */
  cart?: { token: string; state: CartState };
}

/**
 * The anonymous ID of a message about no known visitor or customer: the resource's own ID, else the delivery's. Never
 * a shared value: every identifier of a message is linked to it, and a shared one would join unrelated people.
 */
function ownId(kind: string, id: string | undefined, delivery: ShopifyDelivery, resource: Json): string {
  if (id !== undefined) return `shopify-${kind}-${id}`;
  return `shopify-delivery-${delivery.webhookId ?? sha256Hex(JSON.stringify(resource)).slice(0, 32)}`;
}

function context(delivery: ShopifyDelivery, visitor: ShopifyVisitor, extra: Json = {}): Json {
  const source: SourceNote = { id: delivery.sourceId, type: 'shopify', topic: delivery.topic };
  return { ...extra, ...(visitor.ttclid === undefined ? {} : { ttclid: visitor.ttclid }), source: { ...source, ...(delivery.shopDomain ? { shop: delivery.shopDomain } : {}) } };
}

function identity(visitor: ShopifyVisitor): Pick<WebhookMessage, 'userId' | 'anonymousId'> {
  return { ...(visitor.userId === undefined ? {} : { userId: visitor.userId }), ...(visitor.anonymousId === undefined ? {} : { anonymousId: visitor.anonymousId }) };
}

function defined(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** The buyer's browser as Shopify saw it: `client_details` (IP, user agent, language), else the order's `browser_ip`. */
function device(resource: Json): Json {
  const client = record(resource.client_details);
  return defined({ ip: text(client?.browser_ip) ?? text(resource.browser_ip), userAgent: text(client?.user_agent), locale: text(client?.accept_language) ?? text(resource.customer_locale) });
}

/**
 * An order (orders/create, orders/paid) as Segment's Order Completed, or a checkout as Checkout Started: the order ID
 * (its event_id for TikTok) and amounts, the line items as products, and the buyer's keys and browser.
 */
function commerceMessage(name: string, resource: Json, delivery: ShopifyDelivery, ids: { own: string | undefined; kind: string }): WebhookMessage {
  const visitor = shopifyVisitor(resource, { cartToken: resource.cart_token, fallbackId: ownId(ids.kind, ids.own, delivery, resource) });
  const shipping = amount(record(record(resource.total_shipping_price_set)?.shop_money)?.amount);
  const properties = defined({
    order_id: ids.kind === 'order' ? ids.own : undefined,
    checkout_id: text(resource.checkout_token) ?? text(resource.token) ?? (ids.kind === 'checkout' ? ids.own : undefined),
    order_name: text(resource.name),
    total: amount(resource.total_price),
    subtotal: amount(resource.subtotal_price),
    tax: amount(resource.total_tax),
    discount: amount(resource.total_discounts),
    shipping,
    currency: text(resource.currency),
    products: products(resource),
    test: resource.test === true ? true : undefined,
  });
  return {
    type: 'track',
    event: name,
    ...(delivery.webhookId === undefined ? {} : { messageId: delivery.webhookId }),
    ...timestamp(resource.processed_at, resource.created_at),
    ...identity(visitor),
    properties,
    context: context(delivery, visitor, { ...device(resource), traits: orderTraits(resource) }),
  };
}

function timestamp(...candidates: unknown[]): Pick<WebhookMessage, 'timestamp'> {
  const found = candidates.map(text).find((value) => value !== undefined);
  return found === undefined ? {} : { timestamp: found };
}

/** refunds/create: Order Refunded, worth what went back (the refund's successful refund transactions, else its lines). */
function refundMessage(refund: Json, delivery: ShopifyDelivery): WebhookMessage {
  const orderId = text(refund.order_id);
  const transactions = (Array.isArray(refund.transactions) ? refund.transactions : []).map(record).filter((t) => t !== undefined && t.kind === 'refund' && (t.status === undefined || t.status === 'success'));
  const lines = (Array.isArray(refund.refund_line_items) ? refund.refund_line_items : []).map(record).filter((line) => line !== undefined);
  const refunded = transactions.length > 0 ? transactions.map((t) => amount(t?.amount) ?? 0) : lines.map((line) => amount(line?.subtotal) ?? 0);
  const visitor = shopifyVisitor(refund, { cartToken: undefined, fallbackId: ownId('order', orderId, delivery, refund) });
  const refundedProducts = lines.flatMap((line): SegmentProduct[] => {
    const product = products({ line_items: [line?.line_item] })[0];
    return product === undefined ? [] : [{ ...product, quantity: Number(line?.quantity) || product.quantity }];
  });
  return {
    type: 'track',
    event: 'Order Refunded',
    ...(delivery.webhookId === undefined ? {} : { messageId: delivery.webhookId }),
    ...timestamp(refund.processed_at, refund.created_at),
    ...identity(visitor),
    properties: defined({
      order_id: orderId,
      refund_id: text(refund.id),
      total: refunded.length === 0 ? undefined : Math.round(refunded.reduce((sum, value) => sum + value, 0) * 100) / 100,
      currency: text(transactions[0]?.currency) ?? text(record(record(lines[0]?.subtotal_set)?.shop_money)?.currency_code),
      products: refundedProducts.length === 0 ? undefined : refundedProducts,
    }),
    context: context(delivery, visitor),
  };
}

/** customers/create, customers/update: an identify of the customer ID with their email, phone, name and address. */
function customerMessage(customer: Json, delivery: ShopifyDelivery): WebhookMessage {
  const userId = text(customer.id);
  return {
    type: 'identify',
    ...(delivery.webhookId === undefined ? {} : { messageId: delivery.webhookId }),
    ...timestamp(customer.updated_at, customer.created_at),
    ...(userId === undefined ? { anonymousId: ownId('customer', undefined, delivery, customer) } : { userId }),
    traits: { ...customerTraits(customer) },
    context: context(delivery, {}),
  };
}

/**
 * carts/update: a Product Added for each line whose quantity grew since the cart's last delivery (one product each,
 * as Segment's spec has it), else a Cart Viewed of the whole cart. A cart with no line item is not stored: the tag's
 * own attribute write makes such carts for visitors who never add anything.
 */
function cartMessages(cart: Json, delivery: ShopifyDelivery, state: CartState | undefined): ShopifyMapping {
  const token = text(cart.token) ?? text(cart.id);
  const all = products(cart);
  if (all.length === 0 || token === undefined) return { messages: [] };
  const visitor = shopifyVisitor(cart, { cartToken: token, fallbackId: `shopify-cart-${token}` });
  const change = cartChange(cart, delivery.webhookId, state);
  const base = { type: 'track' as const, ...timestamp(cart.updated_at), ...identity(visitor), context: context(delivery, visitor) };
  const messages: WebhookMessage[] =
    change.added.length > 0
      ? change.added.map((product, index) => ({
          ...base,
          event: 'Product Added',
          ...(delivery.webhookId === undefined ? {} : { messageId: `${delivery.webhookId}:${index + 1}` }),
          // The product's fields, as Segment's Product Added has them; and as a list, which TikTok's contents are read from.
          properties: { cart_id: token, ...product, products: [product] },
        }))
      : [{ ...base, event: 'Cart Viewed', ...(delivery.webhookId === undefined ? {} : { messageId: delivery.webhookId }), properties: { cart_id: token, products: all } }];
  return { messages, ...(change.next === undefined ? {} : { cart: { token, state: change.next } }) };
}

/** Topics without a Segment name are still stored (Shopify turns off webhooks that fail): as `Shopify <topic>`, with the resource's ID. */
function otherTopicMessage(resource: Json, delivery: ShopifyDelivery): WebhookMessage {
  const id = text(resource.id);
  const visitor = shopifyVisitor(resource, { cartToken: resource.cart_token, fallbackId: ownId(delivery.topic.replace(/\W+/g, '-'), id, delivery, resource) });
  return {
    type: 'track',
    event: `Shopify ${delivery.topic}`,
    ...(delivery.webhookId === undefined ? {} : { messageId: delivery.webhookId }),
    ...timestamp(resource.updated_at, resource.created_at),
    ...identity(visitor),
    properties: defined({ shopify_id: id, order_id: delivery.topic.startsWith('orders/') ? id : undefined }),
    context: context(delivery, visitor),
  };
}

/** The messages a Shopify delivery becomes. `cartState` is what the cart's last delivery left (carts/update only). */
export function mapShopifyDelivery(body: unknown, delivery: ShopifyDelivery, cartState?: CartState): ShopifyMapping {
  const resource = record(body) ?? {};
  switch (delivery.topic) {
    case 'orders/create':
    case 'orders/paid':
      return { messages: [commerceMessage('Order Completed', resource, delivery, { own: text(resource.id), kind: 'order' })] };
    case 'checkouts/create':
      return { messages: [commerceMessage('Checkout Started', resource, delivery, { own: text(resource.token) ?? text(resource.id), kind: 'checkout' })] };
    case 'carts/create':
    case 'carts/update':
      return cartMessages(resource, delivery, cartState);
    case 'refunds/create':
      return { messages: [refundMessage(resource, delivery)] };
    case 'customers/create':
    case 'customers/update':
      return { messages: [customerMessage(resource, delivery)] };
    default:
      return { messages: [otherTopicMessage(resource, delivery)] };
  }
}
