import type { Client } from '@temporalio/client';
import type { WakeReport, WorkspaceWaker } from '../activities/deps';
import type { ConversionPipelineRepository } from '../db/repositories/conversion-pipelines';
import type { CreatedConversion } from '../db/repositories/conversions';
import { conversionPipelineWorkflowId } from '../domain/workflow-id';
import { wakeSignal, type conversionPipelineWorkflow } from '../workflows/conversion-pipeline';
import { WorkspaceIdAttribute } from '../workflows/search-attributes';

export type { WakeReport };

export interface PipelineWaker extends WorkspaceWaker {
  /** Ingest, after committing new conversions. A failure leaves them to the sweeper. */
  startConversions(conversions: readonly Pick<CreatedConversion, 'workspaceId'>[]): Promise<WakeReport>;
}

/**
 * Wakes the group workflows of workspaces that have new conversions: signal-with-start under the workspace's workflow
 * ID, so a workflow that is not running starts and one that is never gets a twin. Ingest signals only an idle
 * workflow (see conversion-pipelines.ts), so a busy workspace costs no Temporal action per request.
 */
export function createPipelineWaker(client: Client, taskQueue: string, pipelines: Pick<ConversionPipelineRepository, 'requestWake'>): PipelineWaker {
  async function signal(workspaceId: string): Promise<void> {
    await client.workflow.signalWithStart<typeof conversionPipelineWorkflow, []>('conversionPipelineWorkflow', {
      taskQueue,
      workflowId: conversionPipelineWorkflowId(workspaceId),
      args: [{ workspaceId }],
      signal: wakeSignal,
      signalArgs: [],
      typedSearchAttributes: [{ key: WorkspaceIdAttribute, value: workspaceId }],
    });
  }

  async function wake(workspaceIds: readonly string[], onlyIdle: boolean): Promise<WakeReport> {
    const report: WakeReport = { woken: 0, busy: 0, failed: [] };
    await Promise.all(
      [...new Set(workspaceIds)].map(async (workspaceId) => {
        try {
          if (onlyIdle && !(await pipelines.requestWake(workspaceId))) {
            report.busy += 1;
            return;
          }
          await signal(workspaceId);
          report.woken += 1;
        } catch (error) {
          report.failed.push({ workspaceId, error: String(error) });
        }
      }),
    );
    return report;
  }

  return {
    startConversions: (conversions) => wake(conversions.map((c) => c.workspaceId), true),
    wakeWorkspaces: (workspaceIds) => wake(workspaceIds, false),
  };
}
