/*
 * The statistics pull's shapes, shared with its workflow (workflows/ad-stats-pull.ts). Imports nothing: the workflow
 * imports AD_STATS_FAILURE as a value, so this file is bundled with the workflow code.
 */

/** What a statistics pull will fetch, or why it does nothing this time. */
export type AdStatsPlan =
  | {
      state: 'ready';
      advertiserId: string;
      window: { startDate: string; endDate: string };
      ranges: { startDate: string; endDate: string }[];
    }
  | { state: 'skip'; reason: 'tiktok_not_connected' | 'tiktok_reauthorization_required' | 'no_advertiser_selected' };

export interface AdStatsRangeInput {
  workspaceId: string;
  advertiserId: string;
  level: 'campaign' | 'adgroup' | 'ad';
  startDate: string;
  endDate: string;
}

export interface AdStatsRangeResult {
  level: 'campaign' | 'adgroup' | 'ad';
  startDate: string;
  endDate: string;
  requests: number;
  rows: number;
  /** More than one when TikTok found the range too large (40067) and it was pulled in parts. */
  ranges: number;
}

export const AD_STATS_FAILURE = {
  tokenInvalid: 'TikTokTokenInvalid',
  rejected: 'TikTokRejected',
  transient: 'TikTokTransient',
  throttled: 'TikTokThrottled',
  connectionChanged: 'TikTokConnectionChanged',
  unexpected: 'AdStatsPullFailed',
} as const;
