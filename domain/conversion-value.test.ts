import { conversionValue, eventAmount } from './conversion-value';

describe('conversionValue (spec §6.3)', () => {
  it('values a purchase at its order total and currency', () => {
    expect(conversionValue({ valueSource: 'order_total' }, { total: 129.5, currency: 'eur' })).toEqual({ value: 129.5, currency: 'EUR' });
  });

  it('reads the total from value or revenue, including numeric strings', () => {
    expect(conversionValue({ valueSource: 'order_total' }, { revenue: '46.00', currency: 'USD' })).toEqual({ value: 46, currency: 'USD' });
    expect(conversionValue({ valueSource: 'order_total' }, { value: 12, revenue: 99, currency: 'USD' })).toEqual({ value: 12, currency: 'USD' });
  });

  it("falls back to the rule's currency when the order carries none", () => {
    expect(conversionValue({ valueSource: 'order_total', currency: 'GBP' }, { total: 10 })).toEqual({ value: 10, currency: 'GBP' });
  });

  it('sends no value, with a warning naming the field and what it held, when the total is not an amount', () => {
    expect(conversionValue({ valueSource: 'order_total' }, { total: '12,50', currency: 'EUR' })).toEqual({
      warning: {
        code: 'value_unreadable',
        field: 'properties.total',
        found: '"12,50"',
        message: 'properties.total is "12,50", not an amount (a number of zero or more, such as 12.5): the conversion is sent without a value',
      },
    });
    expect(conversionValue({ valueSource: 'order_total' }, { total: -5 }).warning).toMatchObject({ field: 'properties.total', found: '-5' });
    expect(conversionValue({ valueSource: 'order_total' }, { revenue: { amount: 5 } }).warning).toMatchObject({ field: 'properties.revenue', found: '{"amount":5}' });
  });

  it('sends no value and no warning when the event carries no amount at all', () => {
    expect(conversionValue({ valueSource: 'order_total' }, { currency: 'USD' })).toEqual({});
    expect(conversionValue({ valueSource: 'order_total' }, { total: null, currency: 'USD' })).toEqual({});
  });

  it('values leads and signups at the fixed configured amount, ignoring the event', () => {
    expect(conversionValue({ valueSource: 'fixed', fixedValue: 25, currency: 'USD' }, { value: 999 })).toEqual({ value: 25, currency: 'USD' });
    expect(conversionValue({ valueSource: 'fixed', fixedValue: 25, currency: 'USD' }, { total: 'n/a' }).warning).toBeUndefined();
  });

  it('sends no value for rules without a value source', () => {
    expect(conversionValue({ valueSource: 'none' }, { value: 5, currency: 'USD' })).toEqual({});
  });
});

describe("eventAmount (Segment's e-commerce fields)", () => {
  it('takes the first field present among total, value and revenue, and does not fall back past an unreadable one', () => {
    expect(eventAmount({ total: 27.5, revenue: 25, value: 30 })).toEqual({ amount: 27.5 });
    expect(eventAmount({ value: 30, revenue: 25 })).toEqual({ amount: 30 });
    expect(eventAmount({ total: 'twenty', revenue: 25 })).toEqual({ warning: expect.objectContaining({ field: 'properties.total', found: '"twenty"' }) });
  });

  it('values one product (Product Added) at price × quantity, one item when no quantity is given', () => {
    expect(eventAmount({ price: 18.99, quantity: 3 })).toEqual({ amount: 56.97 });
    expect(eventAmount({ price: '18.99' })).toEqual({ amount: 18.99 });
    expect(eventAmount({ price: 18.99, quantity: 'two' }).warning).toMatchObject({ field: 'properties.quantity', message: expect.stringContaining('not a whole number of items') });
    expect(eventAmount({ price: 'free' }).warning).toMatchObject({ field: 'properties.price' });
  });

  it('shortens what it found to keep the warning readable', () => {
    const found = eventAmount({ total: 'x'.repeat(500) }).warning?.found as string;
    expect(found).toHaveLength(60);
    expect(found.endsWith('…')).toBe(true);
  });
});
