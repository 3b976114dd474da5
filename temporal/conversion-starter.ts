import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { ConversionRepository, CreatedConversion } from '../db/repositories/conversions';
import type { conversionWorkflow } from '../workflows/conversion';
import { ConversionStatusAttribute, TikTokEventAttribute, WorkspaceIdAttribute } from '../workflows/search-attributes';

export interface StartReport {
  started: number;
  alreadyRunning: number;
  failed: { conversionId: string; error: string }[];
}

/**
 * Starts one workflow per conversion under its derived ID. A second start of the same conversion is refused by
 * Temporal and counted as done; a conversion whose earlier run failed or was terminated may start again.
 */
export function createConversionStarter(client: Client, taskQueue: string, conversions: ConversionRepository) {
  async function startOne(conversion: CreatedConversion): Promise<'started' | 'already-running'> {
    try {
      await client.workflow.start<typeof conversionWorkflow>('conversionWorkflow', {
        taskQueue,
        workflowId: conversion.workflowId,
        args: [{ conversionId: conversion.id }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
        typedSearchAttributes: [
          { key: WorkspaceIdAttribute, value: conversion.workspaceId },
          { key: ConversionStatusAttribute, value: 'pending' },
          { key: TikTokEventAttribute, value: conversion.tiktokEvent },
        ],
      });
      return 'started';
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return 'already-running';
      throw error;
    }
  }

  return async function startConversions(batch: readonly CreatedConversion[]): Promise<StartReport> {
    const report: StartReport = { started: 0, alreadyRunning: 0, failed: [] };
    const outcomes = await Promise.allSettled(batch.map(startOne));
    const startedIds: string[] = [];
    outcomes.forEach((outcome, index) => {
      const conversion = batch[index] as CreatedConversion;
      if (outcome.status === 'rejected') {
        report.failed.push({ conversionId: conversion.id, error: String(outcome.reason) });
        return;
      }
      startedIds.push(conversion.id);
      if (outcome.value === 'started') report.started += 1;
      else report.alreadyRunning += 1;
    });
    await conversions.markWorkflowStarted(startedIds);
    return report;
  };
}

export type ConversionStarter = ReturnType<typeof createConversionStarter>;
