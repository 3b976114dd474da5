import { matchRate } from './match-rate';

describe('matchRate', () => {
  it('is the share of delivered conversions that carried a click ID, email or phone', () => {
    expect(matchRate(5, 3)).toBe(0.6);
    expect(matchRate(0, 0)).toBeNull();
  });
});
