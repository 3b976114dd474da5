/** Shapes that cross the workflow boundary (stored in history, shown in the UI): IDs, codes and times, never PII. */
import type { ConversionStatus } from '../db/types';
import type { ConversionReason } from '../domain/reasons';
import type { createActivities } from './index';

export type { WakeReport } from '../temporal/pipeline-waker';
export type { RetentionOptions, RetentionReport } from './retention';
export type { SweepOptions } from './sweep';

export type Activities = ReturnType<typeof createActivities>;

export type PrepareResult =
  | { state: 'ready' }
  | { state: 'skip'; reason: ConversionReason }
  | { state: 'finished'; status: ConversionStatus; reason: string | null };

export interface IdentityResult {
  linkedVisitors: number;
  /** ISO time of the most recent click before the conversion, if any. */
  clickCapturedAt: string | null;
}

export type WindowResult = { eligible: true } | { eligible: false; reason: ConversionReason };

export type PayloadResult = { ready: true; testMode: boolean } | { ready: false; reason: ConversionReason };

export interface DeliveryReceipt {
  code: number;
  message: string;
  requestId: string | null;
}

/** Carried in the ApplicationFailure of a failed delivery, so the workflow can record TikTok's answer. */
export interface DeliveryFailureDetails {
  code: number | null;
  message: string;
  requestId: string | null;
  httpStatus: number | null;
}

export interface Outcome {
  status: Exclude<ConversionStatus, 'pending'>;
  reason: ConversionReason | null;
  tiktokCode?: number | null;
  tiktokMessage?: string | null;
  tiktokRequestId?: string | null;
}

export const DELIVERY_FAILURE = {
  rejected: 'TikTokRejected',
  transient: 'TikTokTransient',
  throttled: 'TikTokThrottled',
} as const;

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
