import { conversionsFor } from '../domain/rule-conversions';
import type { ActivityDeps } from './deps';

export interface PastEventBatchInput {
  runId: string;
  /** Stored events read per batch (one transaction each). */
  batchSize: number;
}

export interface PastEventBatchReport {
  /** The run has nothing left: every event of its window is done, or its rule was removed. */
  done: boolean;
  scanned: number;
  created: number;
}

/**
 * One batch of a "send past events" run: the next stored events of its window, as the rule maps them now, become
 * conversions in one transaction with the run's cursor. The run is read from PostgreSQL, locked, not from the
 * workflow: an attempt retried after its commit, or racing one that is still running, starts where the last commit
 * left it; and a conversion already recorded (same TikTok event and event_id) is not recorded again.
 */
export async function sendPastEventsBatch(deps: ActivityDeps, { runId, batchSize }: PastEventBatchInput): Promise<PastEventBatchReport> {
  const { pastEvents, ingestWrites } = deps.repos;
  const report = await ingestWrites.transaction(async (trx, connection) => {
    const locked = await pastEvents.lockRun(connection, runId);
    if (locked === undefined || locked.run.status !== 'running') return { done: true, scanned: 0, created: [] };
    const { run, rule } = locked;
    if (rule === undefined) {
      await pastEvents.advanceRun(connection, runId, { scanned: 0, created: 0, last: null, status: 'rule_removed' });
      return { done: true, scanned: 0, created: [] };
    }
    const page = await pastEvents.readPage(connection, run, run.cursor, batchSize);
    const { created } = await trx.recordConversions(run.workspaceId, conversionsFor(run.workspaceId, page.events, new Map([[rule.sourceEvent, rule]])));
    const done = page.events.length < batchSize;
    await pastEvents.advanceRun(connection, runId, { scanned: page.events.length, created: created.length, last: page.last, status: done ? 'done' : 'running' });
    return { done, scanned: page.events.length, created };
  });
  // Their group workflows claim them as any new conversion; a wake-up lost here is the outbox sweeper's.
  if (report.created.length > 0) await deps.pipelines.wakeWorkspaces([...new Set(report.created.map((c) => c.workspaceId))]);
  return { done: report.done, scanned: report.scanned, created: report.created.length };
}
