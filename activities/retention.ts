import { addDays, type Day } from '../db/repositories/event-days';
import type { Workspace } from '../db/repositories/workspaces';
import type { ActivityDeps } from './deps';

export interface RetentionOptions {
  /** Events removed per statement (one short transaction each). */
  batchSize: number;
  /** Statements per activity run, so that one run stays short; the workflow calls again while work is left. */
  maxBatches: number;
  /** Where the previous run stopped: workspaces are taken in ID order from this one on. */
  fromWorkspaceId?: string;
  /** It stopped at that workspace's conversions, its events done. */
  fromConversions?: boolean;
}

export interface RetentionReport {
  /** Days of events dropped whole (the first run of a workflow retires days: retireEventDays). */
  daysDropped: Day[];
  deleted: number;
  stripped: number;
  /** Settled conversions past their workspace's conversion retention period, deleted. */
  conversionsDeleted: number;
  /** Whether to continue with that workspace's conversions, its events done. */
  resumeAtConversions?: boolean;
  /** The workspace to continue with when `maxBatches` ran out; null when every workspace is done. */
  resumeAt: string | null;
}

const DAY_MS = 86_400_000;

/**
 * Creates the coming days' partitions of `events` and drops those of the days every workspace's retention period has
 * passed: a day leaves whole, not row by row. A day a pending conversion's event is in, or that ingest held past the
 * lock timeout, waits for a later run. Returns the days dropped.
 */
async function retireEventDays(deps: ActivityDeps, workspaces: readonly Workspace[], now: number): Promise<Day[]> {
  await deps.repos.eventDays.ensureComing(new Date(now));
  const longest = Math.max(0, ...workspaces.map((ws) => ws.eventRetentionDays));
  const horizon = now - longest * DAY_MS;
  const dropped: Day[] = [];
  for (const day of await deps.repos.eventDays.list()) {
    if (Date.parse(addDays(day, 1)) > horizon) break;
    if (await deps.repos.eventDays.holdsPending(day)) continue;
    if (await deps.repos.eventDays.drop(day).then(() => true, keptWhenLocked)) dropped.push(day);
  }
  return dropped;
}

/** A drop that waited past its lock timeout (ingest's transactions held the table) waits for the next run. */
function keptWhenLocked(error: unknown): false {
  if ((error as { code?: string }).code === '55P03') return false;
  throw error;
}

/**
 * Each workspace's raw events older than its retention period: the days past every workspace's period dropped whole
 * (on a workflow's first call), then the rest deleted, or stripped when a conversion refers to them, in batches; then
 * its settled conversions older than its conversion retention period.
 */
export async function removeExpiredEvents(deps: ActivityDeps, options: RetentionOptions): Promise<RetentionReport> {
  const now = Date.now();
  const everyWorkspace = await deps.repos.workspaces.list();
  const daysDropped = options.fromWorkspaceId === undefined ? await retireEventDays(deps, everyWorkspace, now) : [];
  const report: RetentionReport = { daysDropped, deleted: 0, stripped: 0, conversionsDeleted: 0, resumeAt: null };
  const workspaces = everyWorkspace.filter((ws) => options.fromWorkspaceId === undefined || ws.id >= options.fromWorkspaceId);
  let batches = 0;
  /** Runs `batch` until it removes less than a full batch; false when the run's batches ran out first. */
  const drain = async (batch: () => Promise<number>): Promise<boolean> => {
    for (;;) {
      if (batches === options.maxBatches) return false;
      batches += 1;
      if ((await batch()) < options.batchSize) return true;
    }
  };
  for (const workspace of workspaces.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const resumingConversions = workspace.id === options.fromWorkspaceId && options.fromConversions === true;
    const eventCutoff = new Date(now - workspace.eventRetentionDays * DAY_MS);
    const eventsDone =
      resumingConversions ||
      (await drain(async () => {
        const removed = await deps.repos.retention.removeExpired(workspace.id, eventCutoff, options.batchSize);
        report.deleted += removed.deleted;
        report.stripped += removed.stripped;
        return removed.deleted + removed.stripped;
      }));
    if (!eventsDone) return { ...report, resumeAt: workspace.id, resumeAtConversions: false };
    const conversionCutoff = new Date(now - workspace.conversionRetentionDays * DAY_MS);
    const conversionsDone = await drain(async () => {
      const deleted = await deps.repos.retention.removeExpiredConversions(workspace.id, conversionCutoff, options.batchSize);
      report.conversionsDeleted += deleted;
      return deleted;
    });
    if (!conversionsDone) return { ...report, resumeAt: workspace.id, resumeAtConversions: true };
  }
  return report;
}
