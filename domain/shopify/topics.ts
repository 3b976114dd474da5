import { sha256Hex } from '../hashing';
import { record, text } from '../webhooks/webhook-json';
import type { SourceNote, WebhookMessage } from '../webhooks/webhook-message';
import { cartChange, type CartState } from './cart';
import { customerTraits, orderTraits } from './customer-traits';
import { amount, products, type SegmentProduct } from './products';
import { topicMismatch } from './resource-kind';
import { shopifyVisitor, type ShopifyVisitor } from './visitor';

type Json = Record<string, unknown>;

/** One delivery as Shopify's headers describe it (reference/shopify.md "Delivery"). */
export interface ShopifyDelivery {
  sourceId: string;
  /** `X-Shopify-Topic`, e.g. `orders/create`. */
  topic: string;
  /** `X-Shopify-Shop-Domain`. */
  shopDomain?: string;
}

export interface ShopifyMapping {
  messages: WebhookMessage[];
  /** carts/update: the cart's state to remember once the messages are stored. */
  cart?: { token: string; state: CartState };
}

/** The topics of one order that each become its Order Completed (one conversion: its order ID is the event ID). */
export const SHOPIFY_ORDER_TOPICS = ['orders/create', 'orders/paid'] as const;

/** Topics that happen once to a resource; any other may recur for the same one (an update), told apart by its `updated_at`. */
const ONCE_PER_RESOURCE = new Set(['orders/create', 'orders/paid', 'orders/cancelled', 'checkouts/create', 'carts/create', 'refunds/create', 'customers/create']);
/** Above it, a delivery's ID is a digest: message IDs are at most 256 characters. */
const MAX_READABLE_ID = 200;

const digest = (value: string) => sha256Hex(value).slice(0, 32);

/**
 * A delivery's message ID: its source, its topic and its resource (the resource's ID, else a digest of the body), and
 * for a topic that recurs, the resource's `updated_at`. Shopify retries with the payload of the first attempt
 * (shopify.dev changelog, "Updates to webhook retry mechanism", 2024-09-10), so a retry has the same ID; so does a
 * signed body posted again under a new `X-Shopify-Webhook-Id`, which the signature does not cover.
 */
export function shopifyDeliveryId(delivery: ShopifyDelivery, resource: Json): string {
  const resourceId = text(resource.id) ?? text(resource.token) ?? `sha256:${digest(JSON.stringify(resource))}`;
  const version = ONCE_PER_RESOURCE.has(delivery.topic) ? undefined : text(resource.updated_at);
  const id = `${delivery.sourceId}:${delivery.topic}:${resourceId}${version === undefined ? '' : `@${version}`}`;
  return id.length <= MAX_READABLE_ID ? id : `${delivery.sourceId}:sha256:${digest(id)}`;
}

/**
 * The anonymous ID of a message about no known visitor or customer: the resource's own ID, else a digest of it. Never
 * a shared value: every identifier of a message is linked to it, and a shared one would join unrelated people.
 */
function ownId(kind: string, id: string | undefined, resource: Json): string {
  return id !== undefined ? `shopify-${kind}-${id}` : `shopify-delivery-${digest(JSON.stringify(resource))}`;
}

/** The anonymous ID of an order stored with no customer, cart or visitor: how an erasure naming the order finds it. */
export const orderOwnId = (orderId: string): string => ownId('order', orderId, {});

function context(delivery: ShopifyDelivery, visitor: ShopifyVisitor, extra: Json = {}): Json {
  const source: SourceNote = { id: delivery.sourceId, type: 'shopify', topic: delivery.topic, ...(visitor.clickFrom === undefined ? {} : { click: visitor.clickFrom }) };
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
 * A sale at the shop's point of sale happened offline (`context.channel` "offline": its rule's `auto` sends it to the
 * Offline Event Set): Shopify POS names its orders' `source_name` "pos", and an order processed at a physical location
 * carries that location's `location_id`. The REST Order resource's words, as quoted in Shopify's community forum
 * (community.shopify.com, "注文された商品のlocation_idを取得したい", and a Shopify developer advocate in "Order details from
 * Orders API doesn't have the location id"): "This property refers to the POS location. location_id will always be
 * set to null for online orders." Not in our Shopify reference.
 */
function saleChannel(order: Json): Json {
  const offline = order.source_name === 'pos' || (order.location_id !== undefined && order.location_id !== null);
  return offline ? { channel: 'offline' } : {};
}

/**
 * An order (orders/create, orders/paid) as Segment's Order Completed, or a checkout as Checkout Started: the order ID
 * (its event_id for TikTok) and amounts, the line items as products, and the buyer's keys and browser; a sale at the
 * point of sale marked as one that happened offline.
 */
function commerceMessage(name: string, resource: Json, delivery: ShopifyDelivery, messageId: string, ids: { own: string | undefined; kind: string }): WebhookMessage {
  const visitor = shopifyVisitor(resource, { cartToken: resource.cart_token, fallbackId: ownId(ids.kind, ids.own, resource) });
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
    messageId,
    ...timestamp(resource.processed_at, resource.created_at),
    ...identity(visitor),
    properties,
    context: context(delivery, visitor, { ...device(resource), traits: orderTraits(resource), ...(ids.kind === 'order' ? saleChannel(resource) : {}) }),
  };
}

function timestamp(...candidates: unknown[]): Pick<WebhookMessage, 'timestamp'> {
  const found = candidates.map(text).find((value) => value !== undefined);
  return found === undefined ? {} : { timestamp: found };
}

/** refunds/create: Order Refunded, worth what went back (the refund's successful refund transactions, else its lines). */
function refundMessage(refund: Json, delivery: ShopifyDelivery, messageId: string): WebhookMessage {
  const orderId = text(refund.order_id);
  const transactions = (Array.isArray(refund.transactions) ? refund.transactions : []).map(record).filter((t) => t !== undefined && t.kind === 'refund' && (t.status === undefined || t.status === 'success'));
  const lines = (Array.isArray(refund.refund_line_items) ? refund.refund_line_items : []).map(record).filter((line) => line !== undefined);
  const refunded = transactions.length > 0 ? transactions.map((t) => amount(t?.amount) ?? 0) : lines.map((line) => amount(line?.subtotal) ?? 0);
  const visitor = shopifyVisitor(refund, { cartToken: undefined, fallbackId: ownId('order', orderId, refund) });
  const refundedProducts = lines.flatMap((line): SegmentProduct[] => {
    const product = products({ line_items: [line?.line_item] })[0];
    return product === undefined ? [] : [{ ...product, quantity: Number(line?.quantity) || product.quantity }];
  });
  return {
    type: 'track',
    event: 'Order Refunded',
    messageId,
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
function customerMessage(customer: Json, delivery: ShopifyDelivery, messageId: string): WebhookMessage {
  const userId = text(customer.id);
  return {
    type: 'identify',
    messageId,
    ...timestamp(customer.updated_at, customer.created_at),
    ...(userId === undefined ? { anonymousId: ownId('customer', undefined, customer) } : { userId }),
    traits: { ...customerTraits(customer) },
    context: context(delivery, {}),
  };
}

/**
 * carts/update: a Product Added for each line whose quantity grew since the cart's last delivery (one product each,
 * as Segment's spec has it), else a Cart Viewed of the whole cart. A cart with no line item is not stored: the tag's
 * own attribute write makes such carts for visitors who never add anything.
 */
function cartMessages(cart: Json, delivery: ShopifyDelivery, messageId: string, state: CartState | undefined): ShopifyMapping {
  const token = text(cart.token) ?? text(cart.id);
  const all = products(cart);
  if (all.length === 0 || token === undefined) return { messages: [] };
  const visitor = shopifyVisitor(cart, { cartToken: token, fallbackId: `shopify-cart-${token}` });
  const change = cartChange(cart, messageId, state);
  const base = { type: 'track' as const, ...timestamp(cart.updated_at), ...identity(visitor), context: context(delivery, visitor) };
  const messages: WebhookMessage[] =
    change.added.length > 0
      ? change.added.map((product, index) => ({
          ...base,
          event: 'Product Added',
          messageId: `${messageId}:${index + 1}`,
          // The product's fields, as Segment's Product Added has them; and as a list, which TikTok's contents are read from.
          properties: { cart_id: token, ...product, products: [product] },
        }))
      : [{ ...base, event: 'Cart Viewed', messageId, properties: { cart_id: token, products: all } }];
  return { messages, ...(change.next === undefined ? {} : { cart: { token, state: change.next } }) };
}

/** Topics without a Segment name are still stored (Shopify turns off webhooks that fail): as `Shopify <topic>`, with the resource's ID. */
function otherTopicMessage(resource: Json, delivery: ShopifyDelivery, messageId: string): WebhookMessage {
  const id = text(resource.id);
  const visitor = shopifyVisitor(resource, { cartToken: resource.cart_token, fallbackId: ownId(delivery.topic.replace(/\W+/g, '-'), id, resource) });
  return {
    type: 'track',
    event: `Shopify ${delivery.topic}`,
    messageId,
    ...timestamp(resource.updated_at, resource.created_at),
    ...identity(visitor),
    properties: defined({ shopify_id: id, order_id: delivery.topic.startsWith('orders/') ? id : undefined }),
    context: context(delivery, visitor),
  };
}

/**
 * The messages a Shopify delivery becomes, or why it becomes none: a body that is not the resource its topic carries.
 * `cartState` is what the cart's last delivery left (carts/update only).
 */
export function mapShopifyDelivery(body: unknown, delivery: ShopifyDelivery, cartState?: CartState): ShopifyMapping | { refused: string } {
  const mismatch = topicMismatch(delivery.topic, body);
  if (mismatch !== undefined) return { refused: mismatch };
  const resource = record(body) ?? {};
  const messageId = shopifyDeliveryId(delivery, resource);
  switch (delivery.topic) {
    case 'orders/create':
    case 'orders/paid':
      return { messages: [commerceMessage('Order Completed', resource, delivery, messageId, { own: text(resource.id), kind: 'order' })] };
    case 'checkouts/create':
      return { messages: [commerceMessage('Checkout Started', resource, delivery, messageId, { own: text(resource.token) ?? text(resource.id), kind: 'checkout' })] };
    case 'carts/create':
    case 'carts/update':
      return cartMessages(resource, delivery, messageId, cartState);
    case 'refunds/create':
      return { messages: [refundMessage(resource, delivery, messageId)] };
    case 'customers/create':
    case 'customers/update':
      return { messages: [customerMessage(resource, delivery, messageId)] };
    default:
      return { messages: [otherTopicMessage(resource, delivery, messageId)] };
  }
}
