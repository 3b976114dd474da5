import type { ActivityDeps } from './deps';

export interface ConsoleRollupReport {
  eventHours: number;
  conversionHours: number;
  /** Older hours rolled up again because their conversions changed (retries, late outcomes, imports). */
  conversionHoursAgain: number;
}

/** The console's figures on big workspaces: events and settled conversions per hour, rolled up off the ingest path. */
export async function rollUpConsoleFigures(deps: ActivityDeps): Promise<ConsoleRollupReport> {
  const now = new Date();
  const eventHours = await deps.repos.eventCounts.rollUp(now);
  const conversions = await deps.repos.conversionCounts.rollUp(now);
  return { eventHours, conversionHours: conversions.hours, conversionHoursAgain: conversions.rolledUpAgain };
}
