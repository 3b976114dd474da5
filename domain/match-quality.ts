import type { MatchKey } from './match-keys';

/**
 * Signalbox's estimate of TikTok's Event Match Quality (0–10). TikTok computes its own score in Events Manager and
 * gives it through no API, so this one reads only the keys the delivered conversions carried: each key is worth up
 * to its points, earned in proportion to the share of conversions that carried it. The points follow how TikTok ranks
 * customer information (hashed email and phone and the click ID identify a person; external_id and `_ttp` a
 * returning user or browser; IP address and user agent only help as a pair; name and address add little) and add up
 * to 10. docs/console.md "Match quality (estimate)" lists them.
 */
export const MATCH_KEY_POINTS: readonly { key: MatchKey; points: number }[] = [
  { key: 'email', points: 2.5 },
  { key: 'phone', points: 2 },
  { key: 'ttclid', points: 2 },
  { key: 'external_id', points: 1 },
  { key: 'ttp', points: 1 },
  { key: 'ip', points: 0.5 },
  { key: 'user_agent', points: 0.5 },
  { key: 'first_name', points: 0.1 },
  { key: 'last_name', points: 0.1 },
  { key: 'zip_code', points: 0.1 },
  { key: 'country', points: 0.1 },
  { key: 'city', points: 0.05 },
  { key: 'state', points: 0.05 },
];

export interface MatchQuality {
  /** 0–10, one decimal. */
  score: number;
  /** The missing key worth the most: its points × the share of conversions without it; null when none is missing. */
  keyToAdd: { key: MatchKey; missingShare: number; points: number } | null;
}

/** `withKey`: of `conversions` delivered, how many carried each key (absent: none). Null when nothing was delivered. */
export function matchQuality(conversions: number, withKey: Partial<Record<MatchKey, number>>): MatchQuality | null {
  if (conversions <= 0) return null;
  let score = 0;
  let keyToAdd: MatchQuality['keyToAdd'] = null;
  let bestGain = 0;
  for (const { key, points } of MATCH_KEY_POINTS) {
    const share = Math.min(1, (withKey[key] ?? 0) / conversions);
    score += points * share;
    const gain = points * (1 - share);
    if (gain > bestGain) {
      bestGain = gain;
      keyToAdd = { key, missingShare: 1 - share, points };
    }
  }
  return { score: Math.round(score * 10) / 10, keyToAdd };
}
