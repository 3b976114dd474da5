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

/** The TikTok event a service event is sent as: its standard mapping, or (a custom event) its own name (§6.2). */
export function defaultTikTokEvent(serviceEvent: string): string {
  return STANDARD_EVENT_MAP[serviceEvent] ?? serviceEvent;
}

export function isPurchase(serviceEvent: string, tiktokEvent: string): boolean {
  return serviceEvent === 'purchase' || tiktokEvent === 'CompletePayment' || tiktokEvent === 'Purchase';
}

/** TikTok's standard web events, current and legacy (reference/tiktok-api.md §4.1); any other name is custom. */
export const TIKTOK_STANDARD_EVENTS: ReadonlySet<string> = new Set([
  'AddPaymentInfo', 'AddToCart', 'AddToWishlist', 'ApplicationApproval', 'ClickButton', 'CompletePayment',
  'CompleteRegistration', 'Contact', 'CustomizeProduct', 'Download', 'FindLocation', 'InitiateCheckout', 'Lead',
  'PlaceAnOrder', 'Purchase', 'Schedule', 'Search', 'StartTrial', 'SubmitApplication', 'SubmitForm', 'Subscribe',
  'ViewContent',
]);

export function isCustomTikTokEvent(tiktokEvent: string): boolean {
  return !TIKTOK_STANDARD_EVENTS.has(tiktokEvent);
}
