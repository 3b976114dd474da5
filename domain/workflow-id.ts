/**
 * Every conversion of a workspace is processed by its group workflows, long-lived under these IDs (continue-as-new
 * keeps them), so ingest, the sweeper and a retry wake the same executions and can never start a second one. A
 * workspace has one such workflow per pipeline partition (`pipelinePartitions`, 1 by default); partition 0 keeps the
 * workspace's original ID. Conversions recorded by the earlier design carry a workflow ID of their own.
 */
export const PIPELINE_WORKFLOW_PREFIX = 'conversion-pipeline-';

/** Partition k > 0 is `conversion-pipeline-<workspace>-partition-<k>`: no workflow of the earlier design ends so. */
export const PARTITION_WORKFLOW_INFIX = '-partition-';

/** How many group workflows one workspace may split its conversions among (the `pipelinePartitions` setting). */
export const MAX_PIPELINE_PARTITIONS = 16;

export function conversionPipelineWorkflowId(workspaceId: string, partition = 0): string {
  const workspaceWorkflowId = `${PIPELINE_WORKFLOW_PREFIX}${workspaceId}`;
  return partition === 0 ? workspaceWorkflowId : `${workspaceWorkflowId}${PARTITION_WORKFLOW_INFIX}${partition}`;
}
