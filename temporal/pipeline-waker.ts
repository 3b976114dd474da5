import type { Client } from '@temporalio/client';
import type { WakeReport, WorkspaceWaker } from '../activities/deps';
import type { ConversionPipelineRepository, PipelinePartition } from '../db/repositories/conversion-pipelines';
import type { CreatedConversion } from '../db/repositories/conversions';
import { conversionPipelineWorkflowId } from '../domain/workflow-id';
import { wakeSignal, type conversionPipelineWorkflow, type ConversionPipelineInput } from '../workflows/conversion-pipeline';
import { WorkspaceIdAttribute } from '../workflows/search-attributes';

export type { WakeReport };

export interface PipelineWaker extends WorkspaceWaker {
  /** Ingest, after committing new conversions. A failure leaves them to the sweeper. */
  startConversions(conversions: readonly Pick<CreatedConversion, 'id' | 'workspaceId'>[]): Promise<WakeReport>;
}

/**
 * Wakes the group workflows of workspaces that have new conversions: signal-with-start under the workflow ID of each
 * partition concerned, so a workflow that is not running starts and one that is never gets a twin. Ingest signals only
 * an idle workflow (see conversion-pipelines.ts), so a busy partition costs no Temporal action per request.
 */
export function createPipelineWaker(client: Client, taskQueue: string, pipelines: Pick<ConversionPipelineRepository, 'requestWake' | 'everyPartition'>): PipelineWaker {
  async function signal({ workspaceId, partition }: PipelinePartition): Promise<void> {
    const input: ConversionPipelineInput = partition === 0 ? { workspaceId } : { workspaceId, partition };
    await client.workflow.signalWithStart<typeof conversionPipelineWorkflow, []>('conversionPipelineWorkflow', {
      taskQueue,
      workflowId: conversionPipelineWorkflowId(workspaceId, partition),
      args: [input],
      signal: wakeSignal,
      signalArgs: [],
      typedSearchAttributes: [{ key: WorkspaceIdAttribute, value: workspaceId }],
    });
  }

  async function wake(partitions: readonly PipelinePartition[]): Promise<WakeReport> {
    const report: WakeReport = { woken: 0, busy: 0, failed: [] };
    const unique = new Map(partitions.map((p) => [`${p.workspaceId}\u0000${p.partition}`, p]));
    await Promise.all(
      [...unique.values()].map(async (partition) => {
        try {
          await signal(partition);
          report.woken += 1;
        } catch (error) {
          report.failed.push({ ...partition, error: String(error) });
        }
      }),
    );
    return report;
  }

  /** Signals the partitions of new conversions whose workflows are idle (or never ran); the others claim them unasked. */
  async function startConversions(conversions: readonly Pick<CreatedConversion, 'id' | 'workspaceId'>[]): Promise<WakeReport> {
    const byWorkspace = new Map<string, string[]>();
    for (const c of conversions) byWorkspace.set(c.workspaceId, [...(byWorkspace.get(c.workspaceId) ?? []), c.id]);
    const idle: PipelinePartition[] = [];
    const failed: WakeReport['failed'] = [];
    let busy = 0;
    await Promise.all(
      [...byWorkspace].map(async ([workspaceId, ids]) => {
        try {
          for (const { partition, wake: waiting } of await pipelines.requestWake(workspaceId, ids)) {
            if (waiting) idle.push({ workspaceId, partition });
            else busy += 1;
          }
        } catch (error) {
          failed.push({ workspaceId, error: String(error) });
        }
      }),
    );
    const report = await wake(idle);
    return { woken: report.woken, busy, failed: [...failed, ...report.failed] };
  }

  return {
    startConversions,
    wakePartitions: (partitions) => wake(partitions),
    wakeWorkspaces: async (workspaceIds) => wake(await pipelines.everyPartition(workspaceIds)),
  };
}
