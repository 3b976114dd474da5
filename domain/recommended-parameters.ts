/**
 * The parameters TikTok recommends on events that carry an amount, as the diagnostics count them. From
 * /work/shared/reference/tiktok-api.md: §1.4 (`value` is the total, `currency` an ISO 4217 code, `contents` or its
 * alternative `content_ids` the items), §1.6 (the minimal request every integration sends puts all three on a
 * purchase) and §4.1 (AddToCart's recommended parameters: content_type, quantity, description, content_ids, currency,
 * value). Value optimisation and video-shopping ads read them.
 */
export const RECOMMENDED_PARAMETERS = ['value', 'currency', 'contents'] as const;

export type RecommendedParameter = (typeof RECOMMENDED_PARAMETERS)[number];

/** The standard events that carry an amount: a purchase or an order (current and legacy names, §4.1), and the steps to it. */
export const VALUED_TIKTOK_EVENTS: ReadonlySet<string> = new Set(['CompletePayment', 'Purchase', 'PlaceAnOrder', 'AddToCart', 'InitiateCheckout', 'AddPaymentInfo']);

export function recommendsParameters(tiktokEvent: string): boolean {
  return VALUED_TIKTOK_EVENTS.has(tiktokEvent);
}

