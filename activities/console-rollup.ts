import type { ActivityDeps } from './deps';

export interface ConsoleRollupReport {
  eventHours: number;
  conversionHours: number;
  /** Older hours rolled up again because their conversions changed (retries, late outcomes, imports). */
  conversionHoursAgain: number;
  /** Workspace days of the ad reports' delivered conversions rolled up again because they changed. */
  deliveredDaysAgain: number;
  /** Workspaces rolled up whole: new ones, and those whose advertiser's time zone changed. */
  deliveredWorkspacesRebuilt: number;
}

/**
 * The console's figures on big workspaces, rolled up off the ingest path: events and settled conversions per hour,
 * and the ad reports' delivered conversions per day.
 */
export async function rollUpConsoleFigures(deps: Pick<ActivityDeps, 'repos'>): Promise<ConsoleRollupReport> {
  const now = new Date();
  const eventHours = await deps.repos.eventCounts.rollUp(now);
  const conversions = await deps.repos.conversionCounts.rollUp(now);
  const delivered = await deps.repos.deliveredDaily.rollUp(now);
  return {
    eventHours,
    conversionHours: conversions.hours,
    conversionHoursAgain: conversions.rolledUpAgain,
    deliveredDaysAgain: delivered.rolledUpAgain,
    deliveredWorkspacesRebuilt: delivered.workspacesRebuilt,
  };
}
