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

/** Why a day past every workspace's retention period was not dropped: it waits for a later run. */
export type DayKeptReason =
  /** Ingest's transactions held `events` past the lock timeout. */
  | 'lock_timeout'
  /** A pending conversion's event is in it: its steps still read the message. */
  | 'pending_conversion';

/** What became of `events_before_days` (the events stored before the upgrade to days), when the store has it. */
export type BeforeDaysOutcome = 'dropped' | DayKeptReason | 'inside_retention';

/** The partitions of `events` a run created, dropped and kept: the first call of a workflow's run does this. */
export interface EventDaysReport {
  /** Days of events dropped whole, past every workspace's retention period. */
  daysDropped: Day[];
  /** Days past every workspace's retention period kept for now, and why. */
  daysKept: { day: Day; reason: DayKeptReason }[];
  /** Partitions created ahead (today and the coming week). */
  partitionsCreated: Day[];
  /** The oldest day kept because the longest retention period (`longestRetentionDays`) still covers it. */
  retainedSince: Day | null;
  longestRetentionDays: number;
  /** Absent when the store has no `events_before_days`. */
  beforeDays?: BeforeDaysOutcome;
}

export interface RetentionReport extends Partial<Omit<EventDaysReport, 'daysDropped'>> {
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
 * lock timeout, waits for a later run. `events_before_days` leaves the same way once its newest event has passed every
 * period (row retention has deleted or stripped the rest of it by then) and no conversion needs its events any more.
 */
async function retireEventDays(deps: ActivityDeps, workspaces: readonly Workspace[], now: number): Promise<EventDaysReport> {
  const { eventDays } = deps.repos;
  const partitionsCreated = await eventDays.ensureComing(new Date(now));
  const longestRetentionDays = Math.max(0, ...workspaces.map((ws) => ws.eventRetentionDays));
  const horizon = now - longestRetentionDays * DAY_MS;
  const report: EventDaysReport = { daysDropped: [], daysKept: [], partitionsCreated, retainedSince: null, longestRetentionDays };
  for (const day of await eventDays.list()) {
    if (Date.parse(addDays(day, 1)) > horizon) {
      report.retainedSince = day;
      break;
    }
    const outcome = (await eventDays.holdsPending(day)) ? 'pending_conversion' : await droppedUnlessLocked(eventDays.drop(day));
    if (outcome === 'dropped') report.daysDropped.push(day);
    else report.daysKept.push({ day, reason: outcome });
  }
  const newestBeforeDays = await eventDays.newestBeforeDays();
  if (newestBeforeDays !== undefined && newestBeforeDays !== null && newestBeforeDays.getTime() >= horizon) {
    report.beforeDays = 'inside_retention';
  } else if (newestBeforeDays !== undefined) {
    await eventDays.giveConversionsBeforeDaysIds();
    report.beforeDays = (await eventDays.beforeDaysHoldPending()) ? 'pending_conversion' : await droppedUnlessLocked(eventDays.dropBeforeDays());
  }
  deps.retentionMetrics.eventDaysRetired(report);
  return report;
}

/** A drop that waited past its lock timeout (ingest's transactions held the table) waits for the next run. */
function droppedUnlessLocked(drop: Promise<void>): Promise<'dropped' | 'lock_timeout'> {
  return drop.then(
    () => 'dropped' as const,
    (error: unknown) => {
      if ((error as { code?: string }).code === '55P03') return 'lock_timeout' as const;
      throw error;
    },
  );
}

/**
 * Each workspace's raw events older than its retention period: the days past every workspace's period dropped whole
 * (on a workflow's first call), then the rest deleted, or stripped when a conversion refers to them, in batches; then
 * its settled conversions older than its conversion retention period.
 */
export async function removeExpiredEvents(deps: ActivityDeps, options: RetentionOptions): Promise<RetentionReport> {
  const now = Date.now();
  const everyWorkspace = await deps.repos.workspaces.list();
  const days = options.fromWorkspaceId === undefined ? await retireEventDays(deps, everyWorkspace, now) : undefined;
  const report: RetentionReport = { daysDropped: [], ...days, deleted: 0, stripped: 0, conversionsDeleted: 0, resumeAt: null };
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
        deps.retentionMetrics.rowsRemoved('events', removed);
        return removed.deleted + removed.stripped;
      }));
    if (!eventsDone) return { ...report, resumeAt: workspace.id, resumeAtConversions: false };
    const conversionCutoff = new Date(now - workspace.conversionRetentionDays * DAY_MS);
    const conversionsDone = await drain(async () => {
      const deleted = await deps.repos.retention.removeExpiredConversions(workspace.id, conversionCutoff, options.batchSize);
      report.conversionsDeleted += deleted;
      deps.retentionMetrics.rowsRemoved('conversions', { deleted, stripped: 0 });
      return deleted;
    });
    if (!conversionsDone) return { ...report, resumeAt: workspace.id, resumeAtConversions: true };
  }
  return report;
}

/** A whole run of the retention workflow: its first call's partitions, every call's rows. */
export interface RetentionSummary extends EventDaysReport {
  deleted: number;
  stripped: number;
  conversionsDeleted: number;
  /** False when this run stopped at its limit; the next scheduled run continues. */
  complete: boolean;
}

/** A retention run ends with one log line saying what it did and kept, and the time of the worker's last successful run. */
export function recordRetentionRun(deps: ActivityDeps, summary: RetentionSummary): void {
  const { deleted, stripped, ...rest } = summary;
  deps.log.info({ ...rest, eventsDeleted: deleted, eventsStripped: stripped }, 'retention run finished');
  deps.retentionMetrics.runSucceeded(new Date());
}
