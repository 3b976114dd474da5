import { count, money, percent, ratio } from './figures';

describe('figures for tables', () => {
  it('rounds exact decimal strings half up to two places, with thousands separators', () => {
    expect(money('1.005')).toBe('1.01');
    expect(money('12.345')).toBe('12.35');
    expect(money('1234567.5')).toBe('1,234,567.50');
    expect(money('0')).toBe('0.00');
    expect(money('98765432109876543.215')).toBe('98,765,432,109,876,543.22');
  });

  it('shows CTR as a percentage and ROAS as a ratio', () => {
    expect(percent('6.6667')).toBe('6.67%');
    expect(ratio('3')).toBe('3.00');
  });

  it('shows an empty figure as "-"', () => {
    expect([money(null), percent(null), ratio(null), count(null)]).toEqual(['-', '-', '-', '-']);
    expect(count(1234567)).toBe('1,234,567');
  });
});
