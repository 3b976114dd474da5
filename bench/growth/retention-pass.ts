import { Client, Connection } from '@temporalio/client';
import type { RetentionSummary } from '../../workflows/retention';
import type { Infrastructure } from '../pipeline/infrastructure';
import { partSeconds } from './phase-cost';

export interface RetentionPass {
  summary: RetentionSummary;
  seconds: number;
  postgresCpuSeconds: number;
}

/** One run of the hourly retention schedule's workflow on the store as it is, through the bench's worker. */
export async function retentionPass(infra: Infrastructure, label: string): Promise<RetentionPass> {
  const connection = await Connection.connect({ address: infra.temporalAddress });
  try {
    const cpuBefore = infra.cpu();
    const started = performance.now();
    const summary = await new Client({ connection }).workflow.execute('retentionWorkflow', { taskQueue: 'signalbox', workflowId: `growth-retention-${label}`, args: [{}] });
    return { summary: summary as RetentionSummary, seconds: (performance.now() - started) / 1000, postgresCpuSeconds: partSeconds(cpuBefore, infra.cpu(), 'PostgreSQL') };
  } finally {
    await connection.close();
  }
}
