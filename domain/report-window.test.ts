import { daysIn, halveRange, lookbackWindow, MIN_LOOKBACK_DAYS, splitRange } from './report-window';

describe('lookbackWindow', () => {
  it('covers at least 28 days ending on the latest calendar day on Earth (UTC+14)', () => {
    const window = lookbackWindow(new Date('2026-03-10T09:59:00Z'), 7);
    expect(window).toEqual({ startDate: '2026-02-11', endDate: '2026-03-10' });
    expect(daysIn(window)).toBe(MIN_LOOKBACK_DAYS);
    expect(lookbackWindow(new Date('2026-03-10T10:00:00Z'), 7).endDate).toBe('2026-03-11');
  });

  it('grows with a longer attribution window', () => {
    expect(daysIn(lookbackWindow(new Date('2026-03-10T00:00:00Z'), 90))).toBe(90);
  });
});

describe('splitRange', () => {
  it('splits 90 days into three ranges of at most 30 days without gaps or overlaps', () => {
    const ranges = splitRange({ startDate: '2026-01-01', endDate: '2026-03-31' }, 30);
    expect(ranges).toEqual([
      { startDate: '2026-01-01', endDate: '2026-01-30' },
      { startDate: '2026-01-31', endDate: '2026-03-01' },
      { startDate: '2026-03-02', endDate: '2026-03-31' },
    ]);
    expect(ranges.map(daysIn)).toEqual([30, 30, 30]);
  });

  it('keeps a short range whole and crosses leap days', () => {
    expect(splitRange({ startDate: '2028-02-28', endDate: '2028-03-01' }, 30)).toEqual([{ startDate: '2028-02-28', endDate: '2028-03-01' }]);
  });
});

describe('halveRange', () => {
  it('halves a range, the first half taking the odd day', () => {
    expect(halveRange({ startDate: '2026-01-01', endDate: '2026-01-05' })).toEqual([
      { startDate: '2026-01-01', endDate: '2026-01-03' },
      { startDate: '2026-01-04', endDate: '2026-01-05' },
    ]);
  });

  it('cannot halve a single day', () => {
    expect(halveRange({ startDate: '2026-01-01', endDate: '2026-01-01' })).toBeUndefined();
  });
});
