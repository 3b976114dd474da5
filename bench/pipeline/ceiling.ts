import { Client, Connection } from '@temporalio/client';
import type { Infrastructure } from './infrastructure';
import { stopChild } from '../../devstack/children';
import { ConversionStatusAttribute, TikTokEventAttribute, WorkspaceIdAttribute } from '../../workflows/search-attributes';
import { runWithConcurrency } from './concurrency';
import { cpuUsed } from './cpu';
import { summarize, type LatencySummary } from './stats';

export interface ThroughputResult {
  completed: number;
  perSecond: number;
  latency: LatencySummary;
  /** CPU seconds by part over the run. */
  cpu: string;
}

/** `count` no-op workflows of `workflowType` started as fast as the client can, timed from first start to last close. */
export async function measureCeiling(infra: Infrastructure, count: number, label: string, workflowType: string): Promise<ThroughputResult> {
  const taskQueue = `bench-noop-${label}`;
  const worker = infra.startChild(`noop-${label}`, 'bench/pipeline/noop-worker.js', { TEMPORAL_TASK_QUEUE: taskQueue });
  const connection = await Connection.connect({ address: infra.temporalAddress });
  const client = new Client({ connection });
  try {
    await worker.waitForLine(/state: 'RUNNING'/); // bundled and polling: start-up is not part of the ceiling
    const cpuBefore = infra.cpu();
    const startedAt = Date.now();
    await runWithConcurrency(count, 50, (i) =>
      client.workflow.start(workflowType, {
        taskQueue,
        workflowId: `noop-${label}-${i}`,
        typedSearchAttributes: [
          { key: WorkspaceIdAttribute, value: 'ws_bench' },
          { key: ConversionStatusAttribute, value: 'pending' },
          { key: TikTokEventAttribute, value: 'CompletePayment' },
        ],
      }),
    );
    const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Completed'`;
    while ((await client.workflow.count(query)).count < count) await new Promise((resolve) => setTimeout(resolve, 250));
    const closed: { start: number; close: number }[] = [];
    for await (const execution of client.workflow.list({ query })) {
      closed.push({ start: execution.startTime.getTime(), close: (execution.closeTime as Date).getTime() });
    }
    const lastClose = Math.max(...closed.map((c) => c.close));
    const cpu = cpuUsed(cpuBefore, infra.cpu());
    return {
      cpu,
      completed: closed.length,
      perSecond: closed.length / ((lastClose - startedAt) / 1000),
      latency: summarize(closed.map((c) => c.close - c.start)),
    };
  } finally {
    await connection.close();
    await stopChild(worker);
  }
}
