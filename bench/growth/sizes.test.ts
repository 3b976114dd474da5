import { daysOfStep, parseSizes, sameDayBaseline } from './sizes';

describe('the growth benchmark sizes', () => {
  it('spreads every size over 30 days unless it names its days', () => {
    expect(parseSizes('0, 10000000,40000000')).toEqual([
      { events: 0, days: 30 },
      { events: 10_000_000, days: 30 },
      { events: 40_000_000, days: 30 },
    ]);
    expect(parseSizes('0,2700000@2,40000000')).toEqual([
      { events: 0, days: 30 },
      { events: 2_700_000, days: 2 },
      { events: 40_000_000, days: 30 },
    ]);
  });

  it('fills the days behind those its predecessor filled, or all its days when the predecessor reached them', () => {
    const sizes = parseSizes('0,2700000@2,40000000');
    expect(daysOfStep(sizes, 0)).toEqual({ from: 0, to: 30 });
    expect(daysOfStep(sizes, 1)).toEqual({ from: 0, to: 2 });
    expect(daysOfStep(sizes, 2)).toEqual({ from: 2, to: 30 });
    const plain = parseSizes('0,10000000,40000000');
    expect(daysOfStep(plain, 1)).toEqual({ from: 0, to: 30 });
    expect(daysOfStep(plain, 2)).toEqual({ from: 0, to: 30 });
  });

  it('judges store growth alone against the first stored size over fewer days', () => {
    expect(sameDayBaseline(parseSizes('0,2700000@2,40000000'))).toBe(1);
    expect(sameDayBaseline(parseSizes('0,10000000,40000000'))).toBeUndefined();
    expect(sameDayBaseline(parseSizes('0@2,40000000'))).toBeUndefined();
  });

  it('names what is wrong with a size', () => {
    expect(() => parseSizes('0,ten')).toThrow('got "ten" in "0,ten"');
    expect(() => parseSizes('0,100@31')).toThrow('@days (1 to 30): got "100@31"');
    expect(() => parseSizes('0,100@0')).toThrow('got "100@0"');
    expect(() => parseSizes('100,100')).toThrow('must grow from one size to the next');
    expect(() => parseSizes('0,100@5,200@2')).toThrow("days must not shrink");
  });
});
