import type { ActivityDeps } from './deps';

export interface RetentionOptions {
  /** Events removed per statement (one short transaction each). */
  batchSize: number;
  /** Statements per activity run, so that one run stays short; the workflow calls again while work is left. */
  maxBatches: number;
  /** Where the previous run stopped: workspaces are taken in ID order from this one on. */
  fromWorkspaceId?: string;
}

export interface RetentionReport {
  deleted: number;
  stripped: number;
  /** The workspace to continue with when `maxBatches` ran out; null when every workspace is done. */
  resumeAt: string | null;
}

const DAY_MS = 86_400_000;

/** Each workspace's raw events older than its retention period: deleted, or stripped when a conversion refers to them. */
export async function removeExpiredEvents(deps: ActivityDeps, options: RetentionOptions): Promise<RetentionReport> {
  const now = Date.now();
  const report: RetentionReport = { deleted: 0, stripped: 0, resumeAt: null };
  const workspaces = (await deps.repos.workspaces.list()).filter((ws) => options.fromWorkspaceId === undefined || ws.id >= options.fromWorkspaceId);
  let batches = 0;
  for (const workspace of workspaces.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const cutoff = new Date(now - workspace.eventRetentionDays * DAY_MS);
    for (;;) {
      if (batches === options.maxBatches) return { ...report, resumeAt: workspace.id };
      batches += 1;
      const removed = await deps.repos.retention.removeExpired(workspace.id, cutoff, options.batchSize);
      report.deleted += removed.deleted;
      report.stripped += removed.stripped;
      if (removed.deleted + removed.stripped < options.batchSize) break;
    }
  }
  return report;
}
