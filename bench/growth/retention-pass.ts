import { Client, Connection } from '@temporalio/client';
import type { RetentionSummary } from '../../workflows/retention';
import type { Infrastructure } from '../pipeline/infrastructure';

export interface RetentionPass {
  summary: RetentionSummary;
  seconds: number;
  postgresCpuSeconds: number;
}

const postgresSeconds = (snapshot: ReturnType<Infrastructure['cpu']>) => [...snapshot.values()].filter((p) => p.part === 'PostgreSQL').reduce((sum, p) => sum + p.cpuSeconds, 0);

/** One run of the hourly retention schedule's workflow on the store as it is, through the bench's worker. */
export async function retentionPass(infra: Infrastructure, label: string): Promise<RetentionPass> {
  const connection = await Connection.connect({ address: infra.temporalAddress });
  try {
    const cpuBefore = postgresSeconds(infra.cpu());
    const started = performance.now();
    const summary = await new Client({ connection }).workflow.execute('retentionWorkflow', { taskQueue: 'signalbox', workflowId: `growth-retention-${label}`, args: [{}] });
    return { summary: summary as RetentionSummary, seconds: (performance.now() - started) / 1000, postgresCpuSeconds: postgresSeconds(infra.cpu()) - cpuBefore };
  } finally {
    await connection.close();
  }
}
