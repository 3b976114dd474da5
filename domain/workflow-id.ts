/**
 * Every conversion of a workspace is processed by one long-lived workflow under this ID (continue-as-new keeps it), so
 * ingest, the sweeper and a retry wake the same execution and can never start a second one. Conversions recorded by
 * the earlier design carry a workflow ID of their own.
 */
export const PIPELINE_WORKFLOW_PREFIX = 'conversion-pipeline-';

export function conversionPipelineWorkflowId(workspaceId: string): string {
  return `${PIPELINE_WORKFLOW_PREFIX}${workspaceId}`;
}
