import { proxyActivities } from '@temporalio/workflow';
import type { Activities, RetentionOptions } from '../activities/types';

const { removeExpiredEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

export const DEFAULT_RETENTION = { batchSize: 1_000, maxBatches: 100 };
/** Activity runs per workflow run: up to 2,000,000 events an hour; what is left waits for the next run. */
const MAX_RUNS = 20;

export interface RetentionSummary {
  /** Days of events dropped whole (their partition), past every workspace's retention period. */
  daysDropped: string[];
  deleted: number;
  stripped: number;
  conversionsDeleted: number;
  /** False when this run stopped at its limit; the next scheduled run continues. */
  complete: boolean;
}

/**
 * Run by the `signalbox-retention` schedule: drops the days of events past every workspace's retention period, then
 * enforces each workspace's own period on what is left, in bounded batches.
 */
export async function retentionWorkflow(options: Partial<Omit<RetentionOptions, 'fromWorkspaceId' | 'fromConversions'>> = {}): Promise<RetentionSummary> {
  const total = { daysDropped: [] as string[], deleted: 0, stripped: 0, conversionsDeleted: 0 };
  let resumeAt: string | null | undefined;
  let resumeAtConversions: boolean | undefined;
  for (let run = 0; run < MAX_RUNS && resumeAt !== null; run += 1) {
    const report = await removeExpiredEvents({ ...DEFAULT_RETENTION, ...options, fromWorkspaceId: resumeAt, fromConversions: resumeAtConversions });
    // A worker of the release before days reports none.
    total.daysDropped.push(...(report.daysDropped ?? []));
    total.deleted += report.deleted;
    total.stripped += report.stripped;
    total.conversionsDeleted += report.conversionsDeleted ?? 0;
    resumeAt = report.resumeAt;
    resumeAtConversions = report.resumeAtConversions;
  }
  return { ...total, complete: resumeAt === null };
}
