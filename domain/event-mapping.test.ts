import { defaultTikTokEvent, eventMapping, valuedByDefault } from './event-mapping';

describe('defaultTikTokEvent', () => {
  it.each([
    ['purchase', 'CompletePayment'],
    ['add_to_cart', 'AddToCart'],
    ['begin_checkout', 'InitiateCheckout'],
    ['signup', 'CompleteRegistration'],
    ['lead', 'SubmitForm'],
    ['view_content', 'ViewContent'],
    ['search', 'Search'],
  ])('maps the standard event %s to %s (spec §6.1)', (service, tiktok) => {
    expect(defaultTikTokEvent(service)).toBe(tiktok);
  });

  it.each([
    ['Order Completed', 'CompletePayment'],
    ['Product Added', 'AddToCart'],
    ['Checkout Started', 'InitiateCheckout'],
    ['Signed Up', 'CompleteRegistration'],
    ['Product Viewed', 'ViewContent'],
    ['Products Searched', 'Search'],
    ['Payment Info Entered', 'AddPaymentInfo'],
    ['Product Added to Wishlist', 'AddToWishlist'],
    ['Wishlist Product Added to Cart', 'AddToCart'],
    ['Account Created', 'CompleteRegistration'],
    ['Trial Started', 'StartTrial'],
    ['Form Submitted', 'SubmitForm'],
    ['Lead Generated', 'Lead'],
    ['Application Submitted', 'SubmitApplication'],
  ])("maps Segment's spec event %s to %s", (segment, tiktok) => {
    expect(eventMapping(segment)).toEqual({ tiktokEvent: tiktok, origin: 'segment', knownAs: segment });
  });

  it("recognises Segment's names however a library spells them, and says which one it recognised", () => {
    expect(eventMapping('order_completed')).toEqual({ tiktokEvent: 'CompletePayment', origin: 'segment', knownAs: 'Order Completed' });
    expect(eventMapping(' order  completed ')).toEqual({ tiktokEvent: 'CompletePayment', origin: 'segment', knownAs: 'Order Completed' });
    expect(eventMapping('Order Completed Twice').origin).toBe('custom');
  });

  it.each(['Purchase', 'Lead', 'Subscribe', 'StartTrial', 'CompletePayment', 'SubmitForm', 'PlaceAnOrder'])(
    'sends an event already named as the TikTok standard event %s under that name, as a standard event',
    (name) => {
      expect(eventMapping(name)).toEqual({ tiktokEvent: name, origin: 'tiktok', knownAs: name });
    },
  );

  it.each(['Product List Viewed', 'Cart Viewed', 'Order Refunded', 'purchase_completed'])('keeps %s, which has no TikTok counterpart, a custom event', (name) => {
    expect(eventMapping(name).origin).toBe('custom');
  });

  it('sends any other name as a custom event under its own name (spec §6.2)', () => {
    expect(defaultTikTokEvent('subscription_started')).toBe('subscription_started');
    expect(eventMapping('subscription_started')).toEqual({ tiktokEvent: 'subscription_started', origin: 'custom' });
  });
});

describe('valuedByDefault', () => {
  it("values purchases and Segment's events that carry an amount, and nothing else", () => {
    const valued = ['purchase', 'Order Completed', 'Checkout Started', 'Product Added', 'Product Viewed', 'Payment Info Entered', 'Product Added to Wishlist', 'Purchase'];
    expect(valued.filter((name) => !valuedByDefault(name, defaultTikTokEvent(name)))).toEqual([]);
    const unvalued = ['Signed Up', 'Products Searched', 'begin_checkout', 'lead', 'subscription_started', 'Trial Started', 'Lead Generated'];
    expect(unvalued.filter((name) => valuedByDefault(name, defaultTikTokEvent(name)))).toEqual([]);
    expect(valuedByDefault('checkout_done', 'CompletePayment')).toBe(true);
  });
});
