import { conversionValue } from './conversion-value';

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

  it('sends no value when the order has no usable total', () => {
    expect(conversionValue({ valueSource: 'order_total' }, { total: 'lots', currency: 'USD' })).toEqual({});
    expect(conversionValue({ valueSource: 'order_total' }, { total: -5 })).toEqual({});
  });

  it('values leads and signups at the fixed configured amount, ignoring the event', () => {
    expect(conversionValue({ valueSource: 'fixed', fixedValue: 25, currency: 'USD' }, { value: 999 })).toEqual({ value: 25, currency: 'USD' });
  });

  it('sends no value for rules without a value source', () => {
    expect(conversionValue({ valueSource: 'none' }, { value: 5, currency: 'USD' })).toEqual({});
  });
});
