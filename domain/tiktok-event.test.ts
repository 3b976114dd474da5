import type { TikTokProperties } from './tiktok-wire';
import { buildTikTokEvent, readContents, type ConversionFacts } from './tiktok-event';

const facts: ConversionFacts = { tiktokEvent: 'CompletePayment', custom: false, eventId: 'o-1', eventTime: new Date('2026-03-20T12:00:00Z'), value: 46, currency: 'USD' };

function propertiesSent(properties: Record<string, unknown>): TikTokProperties | undefined {
  return buildTikTokEvent({ type: 'track', event: 'Order Completed', messageId: 'm-1', timestamp: '2026-03-20T12:00:00Z', properties }, facts, {}).properties;
}

describe('readContents', () => {
  it("reads Segment's products as contents", () => {
    expect(readContents({ products: [{ product_id: 507, sku: 'F-1', name: 'Fern', category: 'Plants', brand: 'Green', price: '8', quantity: 2 }] })).toEqual([
      { content_id: '507', content_name: 'Fern', content_category: 'Plants', brand: 'Green', price: 8, quantity: 2 },
    ]);
  });

  it('prefers TikTok-shaped contents over products, so the items sent add up to the value', () => {
    const properties = { contents: [{ content_id: 'F-1', price: 23, quantity: 2 }], products: [{ product_id: 'other', price: 1, quantity: 1 }] };
    expect(readContents(properties)).toEqual([{ content_id: 'F-1', price: 23, quantity: 2 }]);
  });

  it('accepts a single contents object', () => {
    expect(readContents({ contents: { content_id: 'F-1', quantity: 1 } })).toEqual([{ content_id: 'F-1', quantity: 1 }]);
  });

  it.each([[{}], [{ contents: [] }], [{ contents: ['F-1', null] }], [{ products: 'F-1' }]])('finds no contents in %p', (properties) => {
    expect(readContents(properties)).toBeUndefined();
  });
});

describe('commerce properties sent', () => {
  it.each<[string, Record<string, unknown>, TikTokProperties]>([
    ['contents as products by default', { products: [{ product_id: 'F-1' }] }, { contents: [{ content_id: 'F-1' }], content_ids: ['F-1'], num_items: 1, content_type: 'product' }],
    ["the sender's product_group", { content_type: 'product_group', contents: [{ content_id: 'G-7' }] }, { contents: [{ content_id: 'G-7' }], content_ids: ['G-7'], num_items: 1, content_type: 'product_group' }],
    [
      'content_ids from the contents, in order, and num_items as their units (2 + 1), when the sender gives neither',
      { contents: [{ content_id: 'F-1', quantity: 2 }, { content_name: 'Gift wrap' }, { content_id: 'F-9' }] },
      { contents: [{ content_id: 'F-1', quantity: 2 }, { content_name: 'Gift wrap' }, { content_id: 'F-9' }], content_ids: ['F-1', 'F-9'], num_items: 3, content_type: 'product' },
    ],
    [
      "the sender's content_ids and num_items over the ones the contents give",
      { products: [{ sku: 'F-1' }, { sku: 'F-2' }], content_ids: ['G-7'], num_items: 5 },
      { contents: [{ content_id: 'F-1' }, { content_id: 'F-2' }], content_ids: ['G-7'], num_items: 5, content_type: 'product' },
    ],
    ['no content_ids or num_items from contents without IDs', { contents: [{ content_name: 'Fern', price: 8 }] }, { contents: [{ content_name: 'Fern', price: 8 }], content_type: 'product' }],
    ['contentType in camelCase', { contentType: 'Product_Group', content_ids: ['G-7'] }, { content_ids: ['G-7'], content_type: 'product_group' }],
    ['content_ids as strings, one ID as a list', { content_ids: 1077218 }, { content_ids: ['1077218'], content_type: 'product' }],
    ['num_items as an integer', { num_items: '3' }, { num_items: 3 }],
    ['an unknown content_type left out', { content_type: 'sku' }, {}],
    ['a fractional num_items left out', { num_items: 2.5 }, {}],
  ])('%s', (_case, properties, expected) => {
    expect(propertiesSent(properties)).toEqual({ value: 46, currency: 'USD', ...expected });
  });
});
