import type { StartReport } from '../temporal/conversion-starter';
import type { ActivityDeps } from './deps';

export interface SweepOptions {
  /** Leave rows this young to the ingest API's own start. */
  minAgeMs: number;
  /** Try again to start rows whose workflow start was recorded this long ago and that are still pending. */
  restartAfterMs: number;
  limit: number;
}

/** The outbox sweeper: starts the workflows of conversions left `pending` (Temporal down, or a crash after commit). */
export async function startPendingConversions(deps: ActivityDeps, options: SweepOptions): Promise<StartReport> {
  const now = Date.now();
  const rows = await deps.repos.conversions.pendingForSweep(new Date(now - options.restartAfterMs), new Date(now - options.minAgeMs), options.limit);
  return deps.startConversions(
    rows.map((row) => ({ id: row.id, workflowId: row.workflow_id, workspaceId: row.workspace_id, tiktokEvent: row.tiktok_event })),
  );
}
