import { LATEST_TIME_MS } from '../sdk/src/rules/index.js';

export interface Click {
  anonymousId: string;
  ttclid: string;
  capturedAt: Date;
}

export type AttributionDecision =
  | { attributed: true; click: Click }
  | { attributed: false; reason: 'no_ttclid' | 'click_outside_attribution_window'; latestClickAt?: Date };

const DAY_MS = 86_400_000;
/** Browser and server clocks disagree a little; a click stamped slightly after the conversion still counts. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The latest capture time of a click that may count for a conversion: the conversion's time plus the skew allowance,
 * but never past 9999-12-31T23:59:59.999Z, the last instant ingest stores (a purchase stamped at the very end of year
 * 9999 would otherwise ask PostgreSQL for clicks before a year-10000 time it cannot read).
 */
export function latestCountedClickTime(conversionTime: Date): Date {
  return new Date(Math.min(conversionTime.getTime() + CLOCK_SKEW_MS, LATEST_TIME_MS));
}

/** Last click wins: the most recent click made before the conversion and no older than the window (spec §4.3). */
export function chooseClick(clicks: readonly Click[], conversionTime: Date, windowDays: number): AttributionDecision {
  const notAfter = latestCountedClickTime(conversionTime);
  const beforeConversion = clicks.filter((click) => click.capturedAt <= notAfter);
  if (beforeConversion.length === 0) return { attributed: false, reason: 'no_ttclid' };
  const latest = beforeConversion.reduce((best, click) => (click.capturedAt > best.capturedAt ? click : best));
  const age = conversionTime.getTime() - latest.capturedAt.getTime();
  if (age > windowDays * DAY_MS) {
    return { attributed: false, reason: 'click_outside_attribution_window', latestClickAt: latest.capturedAt };
  }
  return { attributed: true, click: latest };
}

/**
 * Whether a conversion goes to TikTok once its click is known, and on what. `click`: its click inside the window
 * (spec §6.4), the only way by default. `device`: an app event with an advertising ID, which TikTok attributes by
 * device. `match_keys`: no click inside the window (none at all, or only an older one), sent because the workspace
 * lets TikTok match such conversions on its other keys (`matchWithoutClick`, issue 18); the conversion says so.
 */
export type SendDecision =
  | { send: true; by: 'click' | 'device' | 'match_keys' }
  | { send: false; reason: 'no_ttclid' | 'click_outside_attribution_window' };

export function decideSend(decision: AttributionDecision, facts: { advertisingId: boolean; matchWithoutClick: boolean }): SendDecision {
  if (decision.attributed) return { send: true, by: 'click' };
  if (facts.advertisingId) return { send: true, by: 'device' };
  if (facts.matchWithoutClick) return { send: true, by: 'match_keys' };
  return { send: false, reason: decision.reason };
}
