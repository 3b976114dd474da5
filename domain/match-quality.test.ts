import { MATCH_KEY_POINTS, matchQuality } from './match-quality';

describe('matchQuality: the estimated Event Match Quality of one TikTok event', () => {
  it('gives 10 when every conversion carried every key, and the points add up to 10', () => {
    expect(MATCH_KEY_POINTS.reduce((sum, k) => sum + k.points, 0)).toBeCloseTo(10, 10);
    const all = Object.fromEntries(MATCH_KEY_POINTS.map((k) => [k.key, 40]));
    expect(matchQuality(40, all)).toEqual({ score: 10, keyToAdd: null });
  });

  it('earns each key’s points in proportion to the share that carried it', () => {
    // A backend purchase: click on every one, email on half, external_id on every one.
    expect(matchQuality(10, { ttclid: 10, email: 5, external_id: 10 })?.score).toBe(4.3);
    expect(matchQuality(4, { ip: 4, user_agent: 4 })?.score).toBe(1);
    expect(matchQuality(3, { ttclid: 1 })?.score).toBe(0.7);
  });

  it('names the missing key worth the most: its points × the share without it', () => {
    expect(matchQuality(10, { ttclid: 10, email: 10, external_id: 10 })?.keyToAdd).toEqual({ key: 'phone', missingShare: 1, points: 2 });
    // Email on 90% leaves 0.25 points; phone on none leaves 2.
    expect(matchQuality(10, { email: 9, ttclid: 10 })?.keyToAdd?.key).toBe('phone');
    // Email on 10% (2.25 left) beats phone missing everywhere (2).
    expect(matchQuality(10, { email: 1 })?.keyToAdd).toEqual({ key: 'email', missingShare: 0.9, points: 2.5 });
    // Only the small keys missing: the largest of them, the first in the table on a tie.
    const allButAddress = Object.fromEntries(MATCH_KEY_POINTS.filter((k) => k.points >= 0.5).map((k) => [k.key, 2]));
    expect(matchQuality(2, allButAddress)).toEqual({ score: 9.5, keyToAdd: { key: 'first_name', missingShare: 1, points: 0.1 } });
  });

  it('has no score without a delivered conversion', () => {
    expect(matchQuality(0, {})).toBeNull();
  });
});
