import type { Knex } from 'knex';
import type { RetryClass } from '../../domain/delivery-retry';
import { PIPELINE_WORKFLOW_PREFIX } from '../../domain/workflow-id';
import type { ConversionPipelineRow } from '../types';

/**
 * SQL condition on a conversions row `c`: pending, in its workspace's group workflow's hands (not one that the earlier
 * design started on its own), and not held by a live claim. The workflow ID prefix is the next binding.
 */
export const CLAIMABLE = `c.status = 'pending' AND c.workflow_id = ? || c.workspace_id AND (c.claim_id IS NULL OR c.claimed_until < now())`;

/**
 * The state a workspace's group workflow shares with ingest and the sweeper (`conversion_pipelines`).
 *
 * Waking without a signal per conversion: the workflow marks itself idle and then looks once more for work; ingest
 * commits its conversions and then asks for a wake-up, which only an idle workflow grants. Each side writes before it
 * reads, in statements of their own, so one of them sees the other: either the workflow's last look finds the new
 * conversions, or ingest finds the workflow idle and signals it. A busy workflow costs ingest one index lookup.
 */
export function createConversionPipelineRepository(db: Knex) {
  return {
    /** Ingest, after its commit: true when the workflow must be signalled (it is idle, or has never run). */
    async requestWake(workspaceId: string, executor: Knex = db): Promise<boolean> {
      const { rows } = await executor.raw<{ rows: { wake: boolean }[] }>(
        `WITH woken AS (
           UPDATE conversion_pipelines SET idle = false, updated_at = now() WHERE workspace_id = ? AND idle RETURNING 1
         ), created AS (
           INSERT INTO conversion_pipelines (workspace_id) VALUES (?) ON CONFLICT DO NOTHING RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM woken) OR EXISTS (SELECT 1 FROM created) AS wake`,
        [workspaceId, workspaceId],
      );
      return rows[0]?.wake ?? false;
    },

    /**
     * The workflow, finding nothing to claim: marks itself idle, then looks again. Returns whether work arrived
     * meanwhile (it is busy again then) and when the earliest lease held by another claim runs out.
     */
    async declareIdle(workspaceId: string, executor: Knex = db): Promise<{ work: boolean; leaseEndsAt: Date | null }> {
      await executor.raw(
        `INSERT INTO conversion_pipelines (workspace_id, idle) VALUES (?, true)
         ON CONFLICT (workspace_id) DO UPDATE SET idle = true, updated_at = now()`,
        [workspaceId],
      );
      const { rows } = await executor.raw<{ rows: { work: boolean; lease_ends_at: Date | null }[] }>(
        `SELECT EXISTS (SELECT 1 FROM conversions c WHERE c.workspace_id = ? AND ${CLAIMABLE}) AS work,
                (SELECT min(claimed_until) FROM conversions WHERE workspace_id = ? AND status = 'pending' AND claimed_until >= now()) AS lease_ends_at`,
        [workspaceId, PIPELINE_WORKFLOW_PREFIX, workspaceId],
      );
      const { work, lease_ends_at: leaseEndsAt } = rows[0] as { work: boolean; lease_ends_at: Date | null };
      if (work) await this.markBusy(workspaceId, executor);
      return { work, leaseEndsAt };
    },

    /** Busy workflows are not signalled. */
    async markBusy(workspaceId: string, executor: Knex = db): Promise<void> {
      await executor.raw(
        `INSERT INTO conversion_pipelines (workspace_id, idle) VALUES (?, false)
         ON CONFLICT (workspace_id) DO UPDATE SET idle = false, updated_at = now() WHERE conversion_pipelines.idle`,
        [workspaceId],
      );
    },

    async find(workspaceId: string, executor: Knex = db): Promise<ConversionPipelineRow | undefined> {
      return executor('conversion_pipelines').where({ workspace_id: workspaceId }).first();
    },

    /** TikTok failed transiently: nothing is sent before `resumeAt`. */
    async backOff(workspaceId: string, state: { retryClass: RetryClass; classFailures: number; resumeAt: Date }, executor: Knex = db): Promise<void> {
      await executor('conversion_pipelines')
        .insert({ workspace_id: workspaceId, retry_class: state.retryClass, class_failures: state.classFailures, resume_at: state.resumeAt })
        .onConflict('workspace_id')
        .merge({ retry_class: state.retryClass, class_failures: state.classFailures, resume_at: state.resumeAt, updated_at: executor.fn.now() });
    },

    /** TikTok answered: the backoff starts over. */
    async clearBackoff(workspaceId: string, executor: Knex = db): Promise<void> {
      await executor('conversion_pipelines')
        .where({ workspace_id: workspaceId })
        .whereNotNull('retry_class')
        .update({ retry_class: null, class_failures: 0, resume_at: null, updated_at: executor.fn.now() });
    },

    /**
     * The sweeper: workspaces with conversions nobody has claimed for `minAgeMs` (ingest died before waking the
     * workflow, Temporal was down, the workflow was terminated), except those waiting out a TikTok backoff.
     */
    async stranded(minAgeMs: number, limit: number, executor: Knex = db): Promise<string[]> {
      const { rows } = await executor.raw<{ rows: { workspace_id: string }[] }>(
        `SELECT DISTINCT c.workspace_id FROM conversions c
         LEFT JOIN conversion_pipelines p ON p.workspace_id = c.workspace_id
         WHERE ${CLAIMABLE}
           AND c.created_at < now() - ? * interval '1 millisecond'
           AND (p.resume_at IS NULL OR p.resume_at <= now())
         LIMIT ?`,
        [PIPELINE_WORKFLOW_PREFIX, minAgeMs, limit],
      );
      return rows.map((row) => row.workspace_id);
    },

    /**
     * Conversions of the per-conversion design whose own workflow cannot be running any more (it gave up within about
     * twenty minutes) are handed to their workspace's group workflow. Returns the workspaces concerned.
     */
    async adoptAbandoned(olderThanMs: number, executor: Knex = db): Promise<string[]> {
      const { rows } = await executor.raw<{ rows: { workspace_id: string }[] }>(
        `UPDATE conversions SET workflow_id = ? || workspace_id, updated_at = now()
         WHERE status = 'pending' AND workflow_id <> ? || workspace_id
           AND coalesce(workflow_started_at, created_at) < now() - ? * interval '1 millisecond'
         RETURNING workspace_id`,
        [PIPELINE_WORKFLOW_PREFIX, PIPELINE_WORKFLOW_PREFIX, olderThanMs],
      );
      return [...new Set(rows.map((row) => row.workspace_id))];
    },
  };
}

export type ConversionPipelineRepository = ReturnType<typeof createConversionPipelineRepository>;
