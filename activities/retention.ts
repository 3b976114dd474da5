import { addDays, type Day } from '../db/repositories/event-days';
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

export interface RetiredDays {
  /** Days whose partition was dropped: past every workspace's retention period. */
  dropped: Day[];
  /** Days past it that a pending conversion's event keeps (dropped by a later run). */
  kept: Day[];
  /** Days whose partition was created ahead. */
  created: Day[];
}

/**
 * Creates the coming days' partitions of `events` and drops those of the days every workspace's retention period has
 * passed: a day leaves whole, not row by row. A workspace with a shorter period than the longest has its expired events
 * removed by removeExpiredEvents before that.
 */
export async function retireEventDays(deps: ActivityDeps): Promise<RetiredDays> {
  const now = Date.now();
  const created = await deps.repos.eventDays.ensureComing(new Date(now));
  const longest = Math.max(0, ...(await deps.repos.workspaces.list()).map((ws) => ws.eventRetentionDays));
  const horizon = now - longest * DAY_MS;
  const retired: RetiredDays = { dropped: [], kept: [], created };
  for (const day of await deps.repos.eventDays.list()) {
    if (Date.parse(addDays(day, 1)) > horizon) break;
    if (await deps.repos.eventDays.holdsPending(day)) {
      retired.kept.push(day);
      continue;
    }
    await deps.repos.eventDays.drop(day);
    retired.dropped.push(day);
  }
  return retired;
}

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
