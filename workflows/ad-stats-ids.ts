/** Identifiers shared by the statistics workflow and its schedule (plain strings: safe in workflow code). */

export interface AdStatsPullInput {
  workspaceId: string;
}

export function adStatsScheduleId(workspaceId: string): string {
  return `signalbox-ad-stats-${workspaceId}`;
}

/** Temporal appends the run's scheduled time to a scheduled workflow's ID. */
export function adStatsWorkflowId(workspaceId: string): string {
  return `signalbox-ad-stats-pull-${workspaceId}`;
}
