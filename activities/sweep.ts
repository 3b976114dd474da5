import type { ActivityDeps, WakeReport } from './deps';

export interface SweepOptions {
  /** Leave conversions this young to ingest's own wake-up. */
  minAgeMs: number;
  /**
   * Conversions started on a workflow of their own (before groups) and still pending this long after that start are
   * handed to their workspace's group workflow: that workflow gave up or was lost.
   */
  restartAfterMs: number;
  /** Partitions' workflows woken per sweep. */
  limit: number;
}

/**
 * The outbox sweeper: wakes the group workflow of every workspace partition with conversions nobody claimed (ingest
 * died between its commit and the wake-up, Temporal was down, the workflow was terminated, a claim's lease ran out,
 * the partition count changed).
 */
export async function startPendingConversions(deps: ActivityDeps, options: SweepOptions): Promise<WakeReport> {
  const { conversionPipelines } = deps.repos;
  const adopted = await conversionPipelines.adoptAbandoned(options.restartAfterMs);
  const stranded = await conversionPipelines.stranded(options.minAgeMs, options.limit);
  return deps.pipelines.wakePartitions([...adopted, ...stranded]);
}
