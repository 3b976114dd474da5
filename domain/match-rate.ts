import type { MatchKey } from './match-keys';

/**
 * The match rate the setup checklist holds against spec §8's target of 60%: the share of delivered conversions that
 * carried at least one key that names the person or the click to TikTok, the three spec §1.5 step 4 sends (the
 * click's `ttclid`, hashed email, hashed phone). external_id, `_ttp`, IP address and user agent help TikTok match but
 * do not make a conversion count here.
 */
export const MATCH_RATE_KEYS: readonly MatchKey[] = ['ttclid', 'email', 'phone'];

/** Spec §8: a match rate of 60% or more is the target. */
export const MATCH_RATE_TARGET = 0.6;

/** Null when nothing was delivered. */
export function matchRate(delivered: number, matched: number): number | null {
  return delivered <= 0 ? null : Math.min(1, matched / delivered);
}
