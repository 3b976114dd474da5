import { makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/types';

export interface SendPastEventsInput {
  /** The run in `past_event_runs`: its window, cursor and counts live there, not in history. */
  runId: string;
}

export interface SendPastEventsSummary {
  scanned: number;
  created: number;
}

/** Stored events read per batch, each batch one transaction. */
const PAST_EVENTS_BATCH = 500;
/** A run hands over to a fresh one after this many batches, keeping its history short; the cursor is in PostgreSQL. */
const BATCHES_PER_RUN = 500;

// PostgreSQL outages are waited out, at most a minute apart: a run carries on where its last commit left it.
const { sendPastEventsBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * "Send past events" (issue 31): a rule's stored events of the last days become conversions, batch after batch, until
 * the window is done. Their group workflows deliver them as any other. Killed and started again under the same ID,
 * it carries on from the run's cursor without doubles.
 */
export async function sendPastEventsWorkflow(input: SendPastEventsInput): Promise<SendPastEventsSummary> {
  const total: SendPastEventsSummary = { scanned: 0, created: 0 };
  for (let batch = 0; batch < BATCHES_PER_RUN && !workflowInfo().continueAsNewSuggested; batch++) {
    const report = await sendPastEventsBatch({ runId: input.runId, batchSize: PAST_EVENTS_BATCH });
    total.scanned += report.scanned;
    total.created += report.created;
    if (report.done) return total;
  }
  return makeContinueAsNewFunc<typeof sendPastEventsWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })(input);
}
