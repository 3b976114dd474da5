import { proxyActivities } from '@temporalio/workflow';
import type { Activities, EventDaysReport, RetentionOptions, RetentionReport, RetentionSummary } from '../activities/types';

export type { RetentionSummary } from '../activities/types';

const { removeExpiredEvents, recordRetentionRun } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

export const DEFAULT_RETENTION = { batchSize: 1_000, maxBatches: 100 };
/** Activity runs per workflow run: up to 2,000,000 events an hour; what is left waits for the next run. */
const MAX_RUNS = 20;

/** The partitions a first call retired; a worker of an earlier release reports fewer of them, or none. */
const eventDaysOf = (report: RetentionReport): EventDaysReport => ({
  daysDropped: report.daysDropped ?? [],
  daysKept: report.daysKept ?? [],
  partitionsCreated: report.partitionsCreated ?? [],
  retainedSince: report.retainedSince ?? null,
  longestRetentionDays: report.longestRetentionDays ?? 0,
  ...(report.beforeDays !== undefined && { beforeDays: report.beforeDays }),
});

/**
 * Run by the `signalbox-retention` schedule (and `signalbox retention run`): drops the days of events past every
 * workspace's retention period, then enforces each workspace's own period on what is left, in bounded batches; then
 * logs what it did and kept (recordRetentionRun).
 */
export async function retentionWorkflow(options: Partial<Omit<RetentionOptions, 'fromWorkspaceId' | 'fromConversions'>> = {}): Promise<RetentionSummary> {
  let days: EventDaysReport | undefined;
  const rows = { deleted: 0, stripped: 0, conversionsDeleted: 0 };
  let resumeAt: string | null | undefined;
  let resumeAtConversions: boolean | undefined;
  for (let run = 0; run < MAX_RUNS && resumeAt !== null; run += 1) {
    const report = await removeExpiredEvents({ ...DEFAULT_RETENTION, ...options, fromWorkspaceId: resumeAt, fromConversions: resumeAtConversions });
    days ??= eventDaysOf(report);
    rows.deleted += report.deleted;
    rows.stripped += report.stripped;
    rows.conversionsDeleted += report.conversionsDeleted ?? 0;
    resumeAt = report.resumeAt;
    resumeAtConversions = report.resumeAtConversions;
  }
  const summary: RetentionSummary = { ...(days as EventDaysReport), ...rows, complete: resumeAt === null };
  await recordRetentionRun(summary);
  return summary;
}
