import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { AD_STATS_FAILURE, type Activities, type AdStatsRangeResult } from '../activities/types';
import type { AdStatsPullInput } from './ad-stats-ids';

export interface AdStatsPullSummary {
  status: 'pulled' | 'skipped' | 'reauthorization_required';
  reason: string | null;
  window: { startDate: string; endDate: string } | null;
  requests: number;
  rows: number;
}

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

// Throttling (40100, 40133) and transient faults are retried inside the activity first, then here for as long as TikTok
// fails, at the waits the activity asks for (`nextRetryDelay`: one probe per ≤ 20 s during an outage, minutes when
// throttled), so a pull caught in an outage of any length succeeds soon after TikTok answers again. Other failures
// (PostgreSQL) are retried at most 20 s apart too; TikTok's refusals end the pull at once, and so does any other error
// after a few attempts (the activity makes it non-retryable), its message recorded on the connection.
const pulls = proxyActivities<Activities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '20 seconds' },
});

const LEVELS = ['campaign', 'adgroup', 'ad'] as const;

/**
 * Run by the workspace's schedule (hourly by default): pulls names and status, then the daily report at campaign,
 * ad group and ad level for the lookback window, range by range. An invalid token ends the run as
 * `reauthorization_required` (the activity has already paused the schedule), so the schedule does not fail hourly.
 */
export async function adStatsPullWorkflow({ workspaceId }: AdStatsPullInput): Promise<AdStatsPullSummary> {
  const plan = await bookkeeping.planAdStatsPull(workspaceId);
  if (plan.state === 'skip') return { status: 'skipped', reason: plan.reason, window: null, requests: 0, rows: 0 };

  const results: AdStatsRangeResult[] = [];
  try {
    await pulls.pullAdEntities({ workspaceId, advertiserId: plan.advertiserId });
    for (const range of plan.ranges) {
      const level = (name: (typeof LEVELS)[number]) => pulls.pullAdReport({ workspaceId, advertiserId: plan.advertiserId, level: name, ...range });
      results.push(...(await Promise.all(LEVELS.map(level))));
    }
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : undefined;
    if (!(cause instanceof ApplicationFailure)) throw error;
    await bookkeeping.recordAdStatsPull({ workspaceId, error: cause.message });
    if (cause.type === AD_STATS_FAILURE.tokenInvalid) {
      return { status: 'reauthorization_required', reason: cause.message, window: plan.window, requests: 0, rows: 0 };
    }
    throw ApplicationFailure.nonRetryable(`TikTok statistics pull failed: ${cause.message}`, cause.type ?? undefined);
  }
  await bookkeeping.recordAdStatsPull({ workspaceId, error: null });
  return {
    status: 'pulled',
    reason: null,
    window: plan.window,
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    rows: results.reduce((sum, r) => sum + r.rows, 0),
  };
}
