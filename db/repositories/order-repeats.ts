import { SHOPIFY_ORDER_TOPICS } from '../../domain/shopify/topics';

/** A message ID of a Shopify order topic (`<source>:orders/create:<order>`, domain/shopify/topics.ts `shopifyDeliveryId`). */
const ORDER_MESSAGE = `'^([^:]+):(${SHOPIFY_ORDER_TOPICS.join('|')}):'`;
const sourceAndOrder = (alias: string) => `regexp_replace(${alias}.message_id, ${ORDER_MESSAGE}, '\\1:')`;

/**
 * Whether an event that repeated a conversion's order ID (`repeat`, a row of events) is the same Shopify order from
 * another of its topics (`conversion`, a row of conversions): one source and one order, sent when it was placed and
 * again when it was paid. That is Shopify's normal traffic, folded into the order's one conversion, never an order ID
 * shared by mistake; every count and list of repeats leaves it out.
 */
export function sameShopifyOrderSql(repeat: string, conversion: string): string {
  return `(${repeat}.message_id ~ ${ORDER_MESSAGE} AND ${conversion}.message_id ~ ${ORDER_MESSAGE} AND ${sourceAndOrder(repeat)} = ${sourceAndOrder(conversion)})`;
}
