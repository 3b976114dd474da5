import { isPurchase } from '../sdk/src/rules/event-id.js';

export { isPurchase };

/** Service event name → TikTok standard event (specification §6.1). */
export const STANDARD_EVENT_MAP: Readonly<Record<string, string>> = Object.freeze({
  purchase: 'CompletePayment',
  add_to_cart: 'AddToCart',
  begin_checkout: 'InitiateCheckout',
  signup: 'CompleteRegistration',
  lead: 'SubmitForm',
  view_content: 'ViewContent',
  search: 'Search',
});

/**
 * Segment's spec names → TikTok standard events, so that a shop already instrumented for Segment needs no TikTok event
 * name in its rules: every e-commerce spec v2 event with a TikTok counterpart, the B2B SaaS spec's registration and
 * trial events, and common lead names. Spec events without a counterpart (Product List Viewed, Cart Viewed, Order
 * Refunded, …) are sent as custom events under their own name.
 */
export const SEGMENT_EVENT_MAP: Readonly<Record<string, string>> = Object.freeze({
  'Order Completed': 'CompletePayment',
  'Product Added': 'AddToCart',
  'Wishlist Product Added to Cart': 'AddToCart',
  'Product Added to Wishlist': 'AddToWishlist',
  'Checkout Started': 'InitiateCheckout',
  'Payment Info Entered': 'AddPaymentInfo',
  'Product Viewed': 'ViewContent',
  'Products Searched': 'Search',
  'Signed Up': 'CompleteRegistration',
  'Account Created': 'CompleteRegistration',
  'Trial Started': 'StartTrial',
  'Form Submitted': 'SubmitForm',
  'Lead Created': 'Lead',
  'Lead Generated': 'Lead',
  'Application Submitted': 'SubmitApplication',
});

/** Segment's e-commerce events that carry an amount (`total`, `value`, `revenue`, or `price` × `quantity`). */
const SEGMENT_VALUED_EVENTS: ReadonlySet<string> = new Set([
  'Order Completed', 'Checkout Started', 'Product Added', 'Product Viewed', 'Wishlist Product Added to Cart', 'Product Added to Wishlist',
  'Payment Info Entered',
]);

/** TikTok's standard web events, current and legacy (reference/tiktok-api.md §4.1); any other name is custom. */
export const TIKTOK_STANDARD_EVENTS: ReadonlySet<string> = new Set([
  'AddPaymentInfo', 'AddToCart', 'AddToWishlist', 'ApplicationApproval', 'ClickButton', 'CompletePayment',
  'CompleteRegistration', 'Contact', 'CustomizeProduct', 'Download', 'FindLocation', 'InitiateCheckout', 'Lead',
  'PlaceAnOrder', 'Purchase', 'Schedule', 'Search', 'StartTrial', 'SubmitApplication', 'SubmitForm', 'Subscribe',
  'ViewContent',
]);

export type MappingOrigin = 'standard' | 'segment' | 'tiktok' | 'custom';

export interface EventMapping {
  tiktokEvent: string;
  /**
   * `standard`: the specification's table; `segment`: a Segment spec name; `tiktok`: already a TikTok standard event
   * name (current or legacy), sent as it is; `custom`: sent under its own name (§6.2).
   */
  origin: MappingOrigin;
  /** The spec name the event was recognised as (`Order Completed` for `order_completed`); absent for custom events. */
  knownAs?: string;
}

/** Segment's libraries and destinations accept `Order Completed`, `order completed` and `order_completed` alike. */
function segmentSpelling(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_]+/g, ' ');
}

const SEGMENT_BY_SPELLING = new Map(Object.keys(SEGMENT_EVENT_MAP).map((name) => [segmentSpelling(name), name]));

/** How a service event is sent to TikTok when its rule names no TikTok event. */
export function eventMapping(serviceEvent: string): EventMapping {
  const standard = STANDARD_EVENT_MAP[serviceEvent];
  if (standard !== undefined) return { tiktokEvent: standard, origin: 'standard', knownAs: serviceEvent };
  const segmentName = SEGMENT_BY_SPELLING.get(segmentSpelling(serviceEvent));
  if (segmentName !== undefined) return { tiktokEvent: SEGMENT_EVENT_MAP[segmentName] as string, origin: 'segment', knownAs: segmentName };
  if (TIKTOK_STANDARD_EVENTS.has(serviceEvent)) return { tiktokEvent: serviceEvent, origin: 'tiktok', knownAs: serviceEvent };
  return { tiktokEvent: serviceEvent, origin: 'custom' };
}

/** The TikTok event a service event is sent as: its standard or Segment mapping, or (a custom event) its own name (§6.2). */
export function defaultTikTokEvent(serviceEvent: string): string {
  return eventMapping(serviceEvent).tiktokEvent;
}

/** Whether a rule without a value setting values the event at the amount it carries: purchases, and Segment's valued events. */
export function valuedByDefault(serviceEvent: string, tiktokEvent: string): boolean {
  const mapping = eventMapping(serviceEvent);
  return isPurchase(serviceEvent, tiktokEvent) || (mapping.origin === 'segment' && SEGMENT_VALUED_EVENTS.has(mapping.knownAs as string));
}

export function isCustomTikTokEvent(tiktokEvent: string): boolean {
  return !TIKTOK_STANDARD_EVENTS.has(tiktokEvent);
}
