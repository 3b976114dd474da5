import { pastEventDaysProblem, pastEventLimit } from './past-events';

describe('how far back past events may be sent', () => {
  it('stops at the attribution window when it is the nearest bound', () => {
    expect(pastEventLimit({ attributionWindowDays: 7, eventRetentionDays: 30 })).toEqual({ days: 7, because: "the workspace's attribution window is 7 days" });
  });

  it("stops at TikTok's 28-day horizon", () => {
    expect(pastEventLimit({ attributionWindowDays: 28, eventRetentionDays: 90 }).days).toBe(28);
    expect(pastEventDaysProblem(29, { attributionWindowDays: 28, eventRetentionDays: 90 })).toBe('days must be at most 28, not 29: TikTok counts events of the last 28 days only');
  });

  it('stops where raw events are no longer kept', () => {
    expect(pastEventDaysProblem(6, { attributionWindowDays: 28, eventRetentionDays: 5 })).toBe('days must be at most 5, not 6: raw events are kept 5 days (event retention)');
  });

  it('accepts a whole number of days within every bound, and refuses fractions and zero by name', () => {
    expect(pastEventDaysProblem(7, { attributionWindowDays: 7, eventRetentionDays: 30 })).toBeUndefined();
    expect(pastEventDaysProblem(0, { attributionWindowDays: 7, eventRetentionDays: 30 })).toMatch(/^days must be a whole number/);
    expect(pastEventDaysProblem(1.5, { attributionWindowDays: 7, eventRetentionDays: 30 })).toMatch(/^days must be a whole number/);
  });
});
