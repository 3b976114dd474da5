import { condition, defineSignal, makeContinueAsNewFunc, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities, PreparedGroup } from '../activities/types';

/** Row IDs only: the input is kept in history and shown in the UI, so it carries no PII. */
export interface ConversionPipelineInput {
  workspaceId: string;
  /** Which partition of the workspace's conversions the workflow claims; absent for partition 0, as before partitions existed. */
  partition?: number;
}

/** Sent by ingest (only when the workflow is idle), the sweeper and a retry: there are conversions to claim. */
export const wakeSignal = defineSignal('wake');

/** A run hands over to a fresh one (continue-as-new) after this many groups, keeping its history short. */
const GROUPS_PER_RUN = 200;

/*
 * Local activities: each step's result is a marker in history, and the steps run inside the workflow task instead of
 * a round trip each through the server's task queues. Database outages are waited out: a committed conversion is
 * never dropped. A step may take minutes (a large group split on a parameter error, TikTok answering slowly).
 * Retries stay at most 5 s apart, under the local retry threshold, so they wait in the worker (no timer in history)
 * and the pipeline is back within seconds of PostgreSQL answering again, however long it stalled; TikTok's failures
 * are not retried here but answered by the workspace's backoff.
 */
const steps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

/**
 * Every conversion of one workspace, or of one partition of them, group after group (docs/how-it-works.md "A
 * conversion, step by step"): claim what waits (up to 1,000; while busy, letting the group fill for at most the
 * batching window), resolve identity, check the window and build the events for all of them at once, then deliver
 * them in as few TikTok requests as allowed. With nothing to claim it sleeps without a timer until woken, or until a
 * backoff or another claim's lease ends. It ends only when the workspace no longer has its partition.
 */
export async function conversionPipelineWorkflow(input: ConversionPipelineInput): Promise<void> {
  const { workspaceId, partition } = input;
  let woken = false;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  const { runId } = workflowInfo();
  let busy = false;
  for (let group = 0; group < GROUPS_PER_RUN && !workflowInfo().continueAsNewSuggested; group++) {
    const claim = { workspaceId, claimId: `${runId}:${group}`, runId };
    woken = false;
    const prepared: PreparedGroup = await steps.prepareConversionGroup({ ...claim, fill: busy, ...(partition !== undefined && { partition }) });
    if (prepared.retired) return;
    busy = prepared.claimed > 0;
    if (busy) await steps.deliverConversionGroup({ ...claim, prepared: prepared.summary });
    else if (prepared.wakeInMs === null) await condition(() => woken);
    else if (prepared.wakeInMs > 0) await condition(() => woken, prepared.wakeInMs);
  }
  return makeContinueAsNewFunc<typeof conversionPipelineWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })(input);
}
