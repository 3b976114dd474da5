import type { Knex } from 'knex';
import { TOKEN_INVALID_CODES } from '../../adplatform/tiktok';
import type { Repositories } from '../../db/repositories';
import type { RequeueSelection } from '../../db/repositories/conversions';
import { conversionPipelineWorkflowId } from '../../domain/workflow-id';
import type { PipelineWaker } from '../../temporal/pipeline-waker';

export interface ConversionRetryDeps {
  db: Knex;
  repos: Pick<Repositories, 'conversions' | 'conversionHistory' | 'changeLog'>;
  pipelines: Pick<PipelineWaker, 'wakeWorkspaces'>;
}

export interface RetryResult {
  /** Conversions sent back to be processed again; IDs asked for that were not `failed` or `skipped` are not among them. */
  requeued: string[];
  /** Whether the workspace's workflow was told at once (otherwise the sweeper wakes it within about a minute). */
  woken: boolean;
}

function describe(selection: RequeueSelection): Record<string, unknown> {
  if ('conversionIds' in selection) return { conversionIds: selection.conversionIds };
  if ('refusedToken' in selection) return { refusedToken: true };
  // The search's text may be an email, and its IDs name people: the log says only that there was one.
  const { text, skipAgain: _skipAgain, limit: _limit, ...filter } = selection;
  const fields = Object.entries(filter).filter(([, value]) => value !== undefined);
  return { ...Object.fromEntries(fields.map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])), ...(text === undefined ? {} : { searched: true }) };
}

/**
 * Sends failed (or skipped) conversions of a workspace again, for the settings API, the CLI and the console: by ID or
 * by filter, each with a `retry_requested` step in its history and one change-log entry naming who asked, in one
 * transaction. Idempotent: once put back, a conversion is pending (then delivered or failed again), so asking again
 * changes nothing; a delivered conversion is never sent again.
 */
export function createConversionRetryService({ db, repos, pipelines }: ConversionRetryDeps) {
  async function retry(workspaceId: string, selection: RequeueSelection, actor: string): Promise<RetryResult> {
    const requeued = await db.transaction(async (trx) => {
      const ids = await repos.conversions.requeue(workspaceId, selection, conversionPipelineWorkflowId(workspaceId), trx);
      if (ids.length === 0) return ids;
      await repos.conversionHistory.record(ids.map((conversionId) => ({ conversionId, step: 'retry_requested', detail: { by: actor } })), trx);
      await repos.changeLog.record({ workspaceId, actor, action: 'conversions.retry', after: { ...describe(selection), requeued: ids.length } }, trx);
      return ids;
    });
    if (requeued.length === 0) return { requeued, woken: false };
    const report = await pipelines.wakeWorkspaces([workspaceId]).catch(() => undefined);
    return { requeued, woken: report !== undefined && report.failed.length === 0 };
  }

  return {
    retry,
    /** After a new token is stored: the conversions that failed or were held back because TikTok refused the old one. */
    retryRefusedToken: (workspaceId: string) => retry(workspaceId, { refusedToken: { codes: TOKEN_INVALID_CODES } }, 'system'),
  };
}

export type ConversionRetryService = ReturnType<typeof createConversionRetryService>;
