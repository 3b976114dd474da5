import { defaultTikTokEvent } from './event-mapping';

/** A rule a source's events need to reach TikTok. */
export interface SuggestedRule {
  event: string;
  tiktokEvent: string;
}

/** A fixed event name of a webhook mapping (`"Order Completed"`), as domain/webhooks/mapping.ts reads it. */
const FIXED_NAME = /^\s*"([^"]{1,200})"\s*$/;

/**
 * The rule a source's purchases need: a Shopify shop sends each order as `Order Completed` (domain/shopify/topics.ts);
 * a webhook whose mapping names its event sends that name. A mapping that reads the name from each delivery suggests none.
 */
export function ruleForSource(source: { type: string; mapping?: { event: string } | null }): SuggestedRule | null {
  const event = source.type === 'shopify' ? 'Order Completed' : FIXED_NAME.exec(source.mapping?.event ?? '')?.[1];
  return event === undefined ? null : { event, tiktokEvent: defaultTikTokEvent(event) };
}

/**
 * Why an event should not become a TikTok conversion, or null: a refund (Segment's `Order Refunded`, which Shopify's
 * refunds/create becomes) would count as a sale, and Shopify's other notifications (`Shopify products/update`, an order
 * cancelled or edited) are changes in the shop, not something a shopper did.
 */
export function conversionWarning(eventName: string): string | null {
  if (eventName.trim().toLowerCase().replace(/[\s_]+/g, ' ') === 'order refunded') {
    return 'This is a refund: a rule would send every refund to TikTok as a conversion, which counts money going back as a sale. Leave it without a rule.';
  }
  if (/^Shopify [a-z_]+\/[a-z_]+$/.test(eventName)) {
    return 'This is a change Shopify reports in your shop (a product edited, an order changed or cancelled), not something a shopper did: a rule would send each one to TikTok as a conversion. Leave it without a rule; orders arrive as Order Completed.';
  }
  return null;
}
