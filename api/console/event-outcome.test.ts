import { eventOutcome } from './event-outcome';

const arrived = new Date('2026-11-20T10:00:00Z');
const track = { type: 'track', eventName: 'purchase', receivedAt: arrived };
const none = { conversions: [], duplicateOf: null, ruleCreatedAt: null };
const conversion = (id: string, tiktokEvent: string) => ({ id, tiktokEvent, status: 'pending' as const, reason: null, testMode: false });

describe('what became of an event', () => {
  it.each([
    ['a purchase its rule sent as one TikTok event', track, { ...none, conversions: [conversion('7', 'CompletePayment')] }, 'conversions', 'Became the conversion CompletePayment.'],
    [
      'a purchase sent also as a second TikTok event',
      track,
      { ...none, conversions: [conversion('7', 'CompletePayment'), conversion('8', 'PlaceAnOrder')] },
      'conversions',
      'Became 2 conversions: CompletePayment, PlaceAnOrder.',
    ],
    [
      'a resent order',
      track,
      { ...none, duplicateOf: { conversionId: '7', messageId: 'order-1', tiktokEvent: 'CompletePayment', sameOrder: false }, ruleCreatedAt: arrived },
      'duplicate',
      'A repeat of an earlier CompletePayment: it has the same order ID or event ID, so no new conversion was made and nothing more was sent to TikTok.',
    ],
    [
      "a Shopify order's orders/paid after its orders/create",
      track,
      { ...none, duplicateOf: { conversionId: '7', messageId: 'src_1:orders/create:9074', tiktokEvent: 'CompletePayment', sameOrder: true }, ruleCreatedAt: arrived },
      'duplicate',
      'The same order again: Shopify sends an order when it is placed and again when it is paid. It counts once, as its CompletePayment, and nothing more was sent to TikTok.',
    ],
    ['an event no rule maps', { ...track, eventName: 'wishlist' }, none, 'no_rule', 'No conversion rule matches `wishlist`: the event is stored, and nothing was sent to TikTok.'],
    [
      'an event whose rule came later',
      track,
      { ...none, ruleCreatedAt: new Date('2026-11-21T00:00:00Z') },
      'rule_added_later',
      'No conversion rule matched `purchase` when it arrived: its rule was added later, and applies to the events after it.',
    ],
    ['a page view', { type: 'page', eventName: null, receivedAt: arrived }, none, 'not_a_conversion', 'A page view: it records the visit (and a TikTok click ID on its URL), and is not a conversion.'],
    ['an identify call', { type: 'identify', eventName: null, receivedAt: arrived }, none, 'not_a_conversion', 'An identify call: it links this person’s IDs and traits, and is not a conversion.'],
    ['an event its rule should have made a conversion of', track, { ...none, ruleCreatedAt: new Date('2026-11-01T00:00:00Z') }, 'no_conversion', 'Its rule was in place when it arrived, but no conversion is recorded for it.'],
  ])('%s', (_case, event, facts, kind, text) => {
    expect(eventOutcome(event, facts)).toMatchObject({ kind, text });
  });

  it('warns before a rule for a refund, and says nothing against a purchase', () => {
    expect(eventOutcome({ ...track, eventName: 'Order Refunded' }, none)).toMatchObject({ kind: 'no_rule', warning: expect.stringMatching(/^This is a refund: a rule would send every refund to TikTok/) });
    expect(eventOutcome({ ...track, eventName: 'Shopify products/update' }, none)).toMatchObject({ kind: 'no_rule', warning: expect.stringContaining('not something a shopper did') });
    expect(eventOutcome({ ...track, eventName: 'wishlist' }, none)).toMatchObject({ kind: 'no_rule', warning: null });
  });

  it('links a repeat to the conversion it repeated', () => {
    expect(eventOutcome(track, { ...none, duplicateOf: { conversionId: '7', messageId: 'order-1', tiktokEvent: 'CompletePayment', sameOrder: false } })).toEqual(
      expect.objectContaining({ conversionId: '7', messageId: 'order-1' }),
    );
  });
});
