import type { Knex } from 'knex';
import type { RetryClass } from '../../domain/delivery-retry';
import { PARTITION_WORKFLOW_INFIX, PIPELINE_WORKFLOW_PREFIX } from '../../domain/workflow-id';
import type { ConversionPipelineRow } from '../types';

/** One of a workspace's group workflows: the one of partition `partition` of its conversions. */
export interface PipelinePartition {
  workspaceId: string;
  partition: number;
}

/** A partition as the workspace's partition count (`partitions`) stands now: together they decide its conversions. */
export interface PartitionScope extends PipelinePartition {
  partitions: number;
}

/**
 * SQL: the partition among `count` of the conversion with ID `id`, from a hash of the ID, so it stays put while the
 * count does. Only which workflow tries first depends on it: the claim alone keeps a conversion from being taken twice.
 */
export const partitionOf = (id: string, count: string) => `mod(abs(hashtext(${id}::text)::bigint), ${count})::int`;

/** SQL condition on a conversions row `c`: it falls in a partition; the bindings are the partition count, then the partition. */
export const IN_PARTITION = `${partitionOf('c.id', '?')} = ?`;

/** SQL condition on a conversions row `c`: in one of its workspace's group workflows' hands, not one that the earlier design started on its own. */
const GROUP_PROCESSED = `(c.workflow_id = '${PIPELINE_WORKFLOW_PREFIX}' || c.workspace_id OR starts_with(c.workflow_id, '${PIPELINE_WORKFLOW_PREFIX}' || c.workspace_id || '${PARTITION_WORKFLOW_INFIX}'))`;

/** SQL condition on a conversions row `c`: pending, in its workspace's group workflows' hands, and not held by a live claim. */
export const CLAIMABLE = `c.status = 'pending' AND ${GROUP_PROCESSED} AND (c.claim_id IS NULL OR c.claimed_until < now())`;

const toPartitions = (rows: { workspace_id: string; partition: number }[]): PipelinePartition[] =>
  rows.map((row) => ({ workspaceId: row.workspace_id, partition: row.partition }));

/**
 * The state a workspace's group workflows share with ingest and the sweeper: whether each partition's workflow sleeps
 * (`conversion_pipeline_partitions`) and the workspace's TikTok backoff, which its partitions share (`conversion_pipelines`).
 *
 * Waking without a signal per conversion: a workflow marks its partition idle and then looks once more for work;
 * ingest commits its conversions and then asks for a wake-up of their partitions, which only an idle partition grants.
 * Each side writes before it reads, in statements of their own, so one of them sees the other: either the workflow's
 * last look finds the new conversions, or ingest finds the workflow idle and signals it. A busy workflow costs ingest
 * one index lookup. A change of the partition count wakes every partition (api/services/settings).
 */
export function createConversionPipelineRepository(db: Knex) {
  return {
    /**
     * What a partition's workflow reads before it claims: the workspace's partition count now, whether this partition
     * last said it is idle, and until when the workspace backs off. A workspace that is gone has 1 partition (its
     * conversions went with it).
     */
    async partitionState({ workspaceId, partition }: PipelinePartition, executor: Knex = db): Promise<{ partitions: number; idle: boolean; resumeAt: Date | null }> {
      const { rows } = await executor.raw<{ rows: { partitions: number; idle: boolean; resume_at: Date | null }[] }>(
        `SELECT w.pipeline_partitions AS partitions, coalesce(s.idle, false) AS idle, b.resume_at FROM workspaces w
         LEFT JOIN conversion_pipeline_partitions s ON s.workspace_id = w.id AND s.partition = ?
         LEFT JOIN conversion_pipelines b ON b.workspace_id = w.id
         WHERE w.id = ?`,
        [partition, workspaceId],
      );
      const row = rows[0];
      return row === undefined ? { partitions: 1, idle: false, resumeAt: null } : { partitions: row.partitions, idle: row.idle, resumeAt: row.resume_at };
    },

    /** Every partition of these workspaces, as their partition counts stand now. */
    async everyPartition(workspaceIds: readonly string[], executor: Knex = db): Promise<PipelinePartition[]> {
      const { rows } = await executor.raw<{ rows: { workspace_id: string; partition: number }[] }>(
        'SELECT id AS workspace_id, generate_series(0, pipeline_partitions - 1) AS partition FROM workspaces WHERE id = ANY(?::text[])',
        [[...workspaceIds]],
      );
      return toPartitions(rows);
    },

    /**
     * Ingest, after its commit: the partitions of these conversions, each with whether its workflow must be signalled
     * (it is idle, or has never run).
     */
    async requestWake(workspaceId: string, conversionIds: readonly string[], executor: Knex = db): Promise<{ partition: number; wake: boolean }[]> {
      const { rows } = await executor.raw<{ rows: { partition: number; wake: boolean }[] }>(
        `WITH wanted AS (
           SELECT DISTINCT ${partitionOf('u.id', 'w.pipeline_partitions')} AS partition FROM unnest(?::uuid[]) AS u(id), workspaces w WHERE w.id = ?
         ), woken AS (
           UPDATE conversion_pipeline_partitions p SET idle = false, updated_at = now()
           FROM wanted WHERE p.workspace_id = ? AND p.partition = wanted.partition AND p.idle RETURNING p.partition
         ), created AS (
           INSERT INTO conversion_pipeline_partitions (workspace_id, partition) SELECT ?, partition FROM wanted ON CONFLICT DO NOTHING RETURNING partition
         )
         SELECT partition, partition IN (SELECT partition FROM woken UNION ALL SELECT partition FROM created) AS wake FROM wanted ORDER BY partition`,
        [[...conversionIds], workspaceId, workspaceId, workspaceId],
      );
      return rows;
    },

    /**
     * The workflow, finding nothing to claim: marks its partition idle, then looks again. Returns whether work arrived
     * meanwhile (it is busy again then) and when the earliest lease held by another claim on its partition runs out.
     */
    async declareIdle(scope: PartitionScope, executor: Knex = db): Promise<{ work: boolean; leaseEndsAt: Date | null }> {
      await this.markIdle(scope, executor);
      const { rows } = await executor.raw<{ rows: { work: boolean; lease_ends_at: Date | null }[] }>(
        `SELECT EXISTS (SELECT 1 FROM conversions c WHERE c.workspace_id = ? AND ${CLAIMABLE} AND ${IN_PARTITION}) AS work,
                (SELECT min(c.claimed_until) FROM conversions c
                 WHERE c.workspace_id = ? AND c.status = 'pending' AND c.claimed_until >= now() AND ${IN_PARTITION}) AS lease_ends_at`,
        [scope.workspaceId, scope.partitions, scope.partition, scope.workspaceId, scope.partitions, scope.partition],
      );
      const { work, lease_ends_at: leaseEndsAt } = rows[0] as { work: boolean; lease_ends_at: Date | null };
      if (work) await this.markBusy(scope, executor);
      return { work, leaseEndsAt };
    },

    /** Idle workflows are signalled; so is one whose partition was retired, which then ends again. */
    async markIdle({ workspaceId, partition }: PipelinePartition, executor: Knex = db): Promise<void> {
      await executor.raw(
        `INSERT INTO conversion_pipeline_partitions (workspace_id, partition, idle) VALUES (?, ?, true)
         ON CONFLICT (workspace_id, partition) DO UPDATE SET idle = true, updated_at = now()`,
        [workspaceId, partition],
      );
    },

    /** Busy workflows are not signalled. */
    async markBusy({ workspaceId, partition }: PipelinePartition, executor: Knex = db): Promise<void> {
      await executor.raw(
        `INSERT INTO conversion_pipeline_partitions (workspace_id, partition, idle) VALUES (?, ?, false)
         ON CONFLICT (workspace_id, partition) DO UPDATE SET idle = false, updated_at = now() WHERE conversion_pipeline_partitions.idle`,
        [workspaceId, partition],
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
     * The sweeper: partitions with conversions nobody has claimed for `minAgeMs` (ingest died before waking the
     * workflow, Temporal was down, the workflow was terminated, the partition count changed), except those of
     * workspaces waiting out a TikTok backoff.
     */
    async stranded(minAgeMs: number, limit: number, executor: Knex = db): Promise<PipelinePartition[]> {
      const { rows } = await executor.raw<{ rows: { workspace_id: string; partition: number }[] }>(
        `SELECT DISTINCT c.workspace_id, ${partitionOf('c.id', 'w.pipeline_partitions')} AS partition FROM conversions c
         JOIN workspaces w ON w.id = c.workspace_id
         LEFT JOIN conversion_pipelines p ON p.workspace_id = c.workspace_id
         WHERE ${CLAIMABLE}
           AND c.created_at < now() - ? * interval '1 millisecond'
           AND (p.resume_at IS NULL OR p.resume_at <= now())
         LIMIT ?`,
        [minAgeMs, limit],
      );
      return toPartitions(rows);
    },

    /**
     * Conversions of the per-conversion design whose own workflow cannot be running any more (it gave up within about
     * twenty minutes) are handed to their workspace's group workflows. Returns the partitions concerned.
     */
    async adoptAbandoned(olderThanMs: number, executor: Knex = db): Promise<PipelinePartition[]> {
      const { rows } = await executor.raw<{ rows: { workspace_id: string; partition: number }[] }>(
        `UPDATE conversions c SET workflow_id = ? || c.workspace_id, updated_at = now()
         FROM workspaces w
         WHERE w.id = c.workspace_id AND c.status = 'pending' AND NOT ${GROUP_PROCESSED}
           AND coalesce(c.workflow_started_at, c.created_at) < now() - ? * interval '1 millisecond'
         RETURNING c.workspace_id, ${partitionOf('c.id', 'w.pipeline_partitions')} AS partition`,
        [PIPELINE_WORKFLOW_PREFIX, olderThanMs],
      );
      return toPartitions(rows);
    },
  };
}

export type ConversionPipelineRepository = ReturnType<typeof createConversionPipelineRepository>;
