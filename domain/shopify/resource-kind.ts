import { record } from '../webhooks/webhook-json';

type Json = Record<string, unknown>;

const has = (resource: Json, field: string) => resource[field] !== undefined && resource[field] !== null;

const ofNoOrder = (r: Json) => !has(r, 'order_number') && !has(r, 'refund_line_items');
const ofCheckout = (r: Json) => has(r, 'cart_token') || has(r, 'abandoned_checkout_url');

/**
 * The REST resources Shopify's topics carry, each told apart by the fields only it has (reference/shopify.md, and
 * Shopify's example bodies in devstack/shopify-fake/fixtures): an order has its `order_number`; a refund, the
 * `order_id` it belongs to and its `refund_line_items`; a checkout, its `token` and the cart it came from
 * (`cart_token`) or its recovery link (`abandoned_checkout_url`); a cart, its `token` and neither; a customer, no lines
 * of any kind. A subscription that trims its payload's fields must keep these. Listed from the most telling: the first
 * that fits names a body.
 */
const KINDS = [
  { name: 'a refund', fits: (r: Json) => has(r, 'order_id') && Array.isArray(r.refund_line_items) },
  { name: 'an order', fits: (r: Json) => has(r, 'id') && has(r, 'order_number') && !has(r, 'refund_line_items') },
  { name: 'a checkout', fits: (r: Json) => has(r, 'token') && ofCheckout(r) && ofNoOrder(r) },
  { name: 'a cart', fits: (r: Json) => has(r, 'token') && !ofCheckout(r) && ofNoOrder(r) },
  { name: 'a customer', fits: (r: Json) => has(r, 'id') && !has(r, 'line_items') && ofNoOrder(r) },
] as const;
type Kind = (typeof KINDS)[number];
const [REFUND, ORDER, CHECKOUT, CART, CUSTOMER] = KINDS;

/** The resource each topic Signalbox turns into a named event carries; other topics are stored as `Shopify <topic>`, whatever their body. */
const KIND_OF_TOPIC: Record<string, Kind> = {
  'orders/create': ORDER,
  'orders/paid': ORDER,
  'checkouts/create': CHECKOUT,
  'carts/create': CART,
  'carts/update': CART,
  'refunds/create': REFUND,
  'customers/create': CUSTOMER,
  'customers/update': CUSTOMER,
};

/**
 * Why a body does not fit the topic it was delivered under, else undefined. Shopify's signature covers the body only,
 * so whoever captured one signed delivery could post it again under another topic: an order as a checkout or a refund.
 */
export function topicMismatch(topic: string, body: unknown): string | undefined {
  const expected = KIND_OF_TOPIC[topic];
  const resource = record(body);
  if (expected === undefined || (resource !== undefined && expected.fits(resource))) return undefined;
  const actual = resource === undefined ? undefined : KINDS.find((kind) => kind.fits(resource));
  return `X-Shopify-Topic ${topic} carries ${expected.name}, and this body is ${actual?.name ?? 'none of the resources Shopify sends'}: a signed body posted again under another topic`;
}
