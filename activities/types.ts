/** Shapes that cross the workflow boundary (stored in history, shown in the UI): IDs, codes and times, never PII. */
import type { createActivities } from './index';

export type { WakeReport } from '../temporal/pipeline-waker';
export type { RetentionOptions, RetentionReport } from './retention';
export type { SweepOptions } from './sweep';
export type { ConsoleRollupReport } from './console-rollup';

export type Activities = ReturnType<typeof createActivities>;

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
} as const;
export type { GroupInput, PrepareGroupInput, PreparedGroup } from './group/prepare-group';
export type { DeliveredGroup } from './group/deliver-group';
