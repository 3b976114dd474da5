import { addDecimals, MetricFormatError, parseCountMetric, parseDecimalMetric } from './ad-metrics';

describe('parseDecimalMetric', () => {
  it.each([
    ['76.73', '76.73'],
    ['0.10', '0.1'],
    ['007.50', '7.5'],
    ['10505.0', '10505'],
    ['0.00', '0'],
    ['12.50', '12.5'],
    ['0.050', '0.05'],
    ['100', '100'],
    ['100.', '100'],
    ['0', '0'],
    [' 12.3 ', '12.3'],
    [1.1, '1.1'],
    [42, '42'],
  ])('reads %p exactly as %p', (input, expected) => {
    expect(parseDecimalMetric('spend', input)).toBe(expected);
  });

  it('keeps every digit a float would lose', () => {
    expect(parseDecimalMetric('spend', '12345678901234567.89')).toBe('12345678901234567.89');
    expect(parseDecimalMetric('spend', '0.1000000000000000055511151231257827')).toBe('0.1000000000000000055511151231257827');
  });

  it.each([['-'], [''], [null], [undefined]])('turns %p into null', (input) => {
    expect(parseDecimalMetric('spend', input)).toBeNull();
  });

  it.each([['12,50'], ['abc'], ['1.2.3'], [Number.NaN], [{}]])('rejects %p naming the metric', (input) => {
    expect(() => parseDecimalMetric('spend', input)).toThrow(MetricFormatError);
    expect(() => parseDecimalMetric('spend', input)).toThrow(/^metric spend: /);
  });
});

describe('parseCountMetric', () => {
  it('reads whole counts sent as strings, with a .0, or as numbers', () => {
    expect(parseCountMetric('impressions', '10505')).toBe(10505);
    expect(parseCountMetric('impressions', '10505.0')).toBe(10505);
    expect(parseCountMetric('impressions', 7)).toBe(7);
    expect(parseCountMetric('impressions', '-')).toBeNull();
  });

  it('refuses fractional or negative counts', () => {
    expect(() => parseCountMetric('clicks', '3.5')).toThrow(/metric clicks: "3.5" is not a whole non-negative count/);
    expect(() => parseCountMetric('clicks', '-2')).toThrow(MetricFormatError);
  });
});

describe('addDecimals', () => {
  it.each([
    ['129.9', '0', '129.9'],
    ['0.1', '0.2', '0.3'],
    ['12345678901234567.89', '0.11', '12345678901234568'],
    ['1e-7', '1', '1.0000001'],
    ['-1.5', '2', '0.5'],
  ])('adds %p and %p exactly: %p', (a, b, sum) => {
    expect(addDecimals(a, b)).toBe(sum);
  });

  it('adds nothing for a missing figure and is null only when both are', () => {
    expect(addDecimals(null, '4.5')).toBe('4.5');
    expect(addDecimals('4.5', null)).toBe('4.5');
    expect(addDecimals(null, null)).toBeNull();
  });
});
