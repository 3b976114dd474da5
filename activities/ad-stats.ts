import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  pullAdvertiserLocale,
  pullEntities,
  pullReportRange,
  ReportRowError,
  TikTokCallFailed,
  type AdStatsPullContext,
  type AdvertiserLocale,
  type EntityPullResult,
} from '../adplatform/ad-stats';
import { TIKTOK_LIMITS } from '../adplatform/tiktok';
import type { AdLevel } from '../db/types';
import { isStorageUnavailable } from '../db/storage-errors';
import { MetricFormatError } from '../domain/ad-metrics';
import { backoffMs } from '../domain/delivery-retry';
import { lookbackWindow, splitRange } from '../domain/report-window';
import type { ActivityDeps } from './deps';
import { loadWorkspace } from './load';
import { AD_STATS_FAILURE, type AdStatsPlan, type AdStatsRangeInput, type AdStatsRangeResult } from './ad-stats-types';

/** Which advertiser and days to pull: the lookback window (≥ the attribution window) in ranges TikTok accepts. */
export async function planAdStatsPull(deps: ActivityDeps, workspaceId: string): Promise<AdStatsPlan> {
  const workspace = await loadWorkspace(deps, workspaceId);
  const connection = await deps.repos.tiktokConnections.summary(workspaceId);
  if (connection === undefined) return { state: 'skip', reason: 'tiktok_not_connected' };
  if (connection.status === 'reauthorization_required') return { state: 'skip', reason: 'tiktok_reauthorization_required' };
  if (connection.advertiserId === null) return { state: 'skip', reason: 'no_advertiser_selected' };
  const window = lookbackWindow(new Date(), workspace.attributionWindowDays);
  return { state: 'ready', advertiserId: connection.advertiserId, window, ranges: splitRange(window, TIKTOK_LIMITS.maxDaysPerDailyReport) };
}

async function pullContext(deps: ActivityDeps, workspaceId: string, advertiserId: string): Promise<AdStatsPullContext> {
  const connection = await deps.repos.tiktokConnections.withToken(workspaceId);
  if (connection === undefined || connection.advertiserId !== advertiserId) {
    throw ApplicationFailure.nonRetryable('the TikTok connection was removed or changed advertiser during the pull', AD_STATS_FAILURE.connectionChanged);
  }
  return {
    tiktok: deps.tiktok,
    adStats: deps.repos.adStats,
    workspaceId,
    advertiserId,
    accessToken: connection.accessToken,
    probe: Context.current().info.attempt > 1,
    onProgress: (progress) => Context.current().heartbeat(progress),
  };
}

/** Attempts before a failure that is neither TikTok's nor PostgreSQL's unavailability ends the pull (about 15 s in). */
const UNEXPECTED_FAILURE_ATTEMPTS = 5;

/**
 * Turns a failure into what Temporal should do: an invalid or revoked token marks the connection for
 * re-authorization and pauses the schedule (so it stops failing every hour); other rejections fail at once;
 * throttling and transient faults are retried by Temporal after the in-call retries, for as long as TikTok fails, with
 * the delivery's backoff: during an outage one probe per interval (at most 20 s ± 20% apart), so the pull succeeds
 * within about that interval of TikTok answering again; throttling waits longer and longer, up to minutes.
 */
async function failureOf(deps: ActivityDeps, workspaceId: string, error: unknown): Promise<never> {
  if (error instanceof TikTokCallFailed) {
    const { result } = error;
    if (result.outcome === 'permanent' && result.tokenInvalid) {
      await deps.repos.tiktokConnections.markReauthorizationRequired(workspaceId);
      await deps.adStatsSchedules.pause(workspaceId, `Paused: TikTok refused the access token (${error.message}). Reconnect TikTok to resume.`);
      throw ApplicationFailure.nonRetryable(error.message, AD_STATS_FAILURE.tokenInvalid);
    }
    if (result.outcome === 'permanent') throw ApplicationFailure.nonRetryable(error.message, AD_STATS_FAILURE.rejected);
    const retryClass = result.throttled ? 'throttled' : 'transient';
    const nextRetryDelay = backoffMs(deps.pipeline.retry, { retryClass, classFailures: Context.current().info.attempt });
    throw ApplicationFailure.create({ message: error.message, type: AD_STATS_FAILURE[retryClass], nextRetryDelay });
  }
  if (error instanceof ReportRowError || error instanceof MetricFormatError) {
    throw ApplicationFailure.nonRetryable(`TikTok sent a report row Signalbox cannot read: ${error.message}`, AD_STATS_FAILURE.rejected);
  }
  // PostgreSQL being unavailable is waited out; anything else that keeps failing (a bug, a data edge) ends the pull
  // with its error recorded for the console, instead of retrying unseen while the schedule skips its runs.
  const { attempt } = Context.current().info;
  if (!isStorageUnavailable(error) && attempt >= UNEXPECTED_FAILURE_ATTEMPTS) {
    throw ApplicationFailure.nonRetryable(`the statistics pull failed ${attempt} times: ${error instanceof Error ? error.message : String(error)}`, AD_STATS_FAILURE.unexpected);
  }
  throw error;
}

/** The advertiser's currency and time zone (stored on the connection), then names and status of its campaigns, ad groups and ads. */
export async function pullAdEntities(
  deps: ActivityDeps,
  input: { workspaceId: string; advertiserId: string },
): Promise<{ advertiser: AdvertiserLocale | { skipped: string }; entities: EntityPullResult[] }> {
  const context = await pullContext(deps, input.workspaceId, input.advertiserId);
  try {
    const advertiser = await pullAdvertiserLocale(context);
    if (!('skipped' in advertiser)) await deps.repos.tiktokConnections.recordAdvertiserInfo(input.workspaceId, input.advertiserId, advertiser);
    const entities: EntityPullResult[] = [];
    for (const kind of ['campaign', 'adgroup', 'ad'] as const) entities.push(await pullEntities(context, kind));
    return { advertiser, entities };
  } catch (error) {
    return failureOf(deps, input.workspaceId, error);
  }
}

export async function pullAdReport(deps: ActivityDeps, input: AdStatsRangeInput): Promise<AdStatsRangeResult> {
  const context = await pullContext(deps, input.workspaceId, input.advertiserId);
  try {
    const result = await pullReportRange(context, input.level as AdLevel, { startDate: input.startDate, endDate: input.endDate });
    return { level: input.level, startDate: input.startDate, endDate: input.endDate, ...result };
  } catch (error) {
    return failureOf(deps, input.workspaceId, error);
  }
}

export async function recordAdStatsPull(deps: ActivityDeps, input: { workspaceId: string; error: string | null }): Promise<void> {
  await deps.repos.tiktokConnections.recordStatsPull(input.workspaceId, { at: new Date(), error: input.error });
}
