import { conversionWarning, ruleForSource } from './rule-advice';

describe('the rule a source needs', () => {
  it('is Order Completed, sent as CompletePayment, for a Shopify shop', () => {
    expect(ruleForSource({ type: 'shopify' })).toEqual({ event: 'Order Completed', tiktokEvent: 'CompletePayment' });
  });

  it("is the fixed event name of a webhook's mapping, and none when the mapping reads the name from each delivery", () => {
    expect(ruleForSource({ type: 'webhook', mapping: { event: '"Lead Created"' } })).toEqual({ event: 'Lead Created', tiktokEvent: 'Lead' });
    expect(ruleForSource({ type: 'webhook', mapping: { event: 'type' } })).toBeNull();
  });
});

describe('events that should not become conversions', () => {
  it.each(['Order Refunded', 'order_refunded', 'Shopify products/update', 'Shopify orders/cancelled'])('warns before %s', (event) => {
    expect(conversionWarning(event)).toEqual(expect.stringContaining('Leave it without a rule'));
  });

  it.each(['Order Completed', 'purchase', 'Checkout Started', 'Shopify fan club'])('says nothing of %s', (event) => {
    expect(conversionWarning(event)).toBeNull();
  });
});
