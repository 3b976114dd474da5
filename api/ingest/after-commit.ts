import type { FastifyBaseLogger } from 'fastify';
import type { AcceptedBody } from '../../contract/ingest';
import type { CreatedConversion } from '../../db/repositories/conversions';
import type { WakeReport } from '../../temporal/pipeline-waker';
import type { IngestMetrics } from '../http/metrics';
import type { BatchResult } from './record-batch';

export type StartConversions = (conversions: readonly CreatedConversion[]) => Promise<WakeReport>;

/** Conversions are committed as `pending` already; a wake-up that fails here is done again by the sweeper. */
function startInBackground(start: StartConversions, conversions: readonly CreatedConversion[], log: FastifyBaseLogger): void {
  if (conversions.length === 0) return;
  void Promise.resolve()
    .then(() => start(conversions))
    .then(
      (report) => {
        if (report.failed.length > 0) log.warn({ failed: report.failed }, 'conversion workflows not woken; the sweeper will wake them');
      },
      (error: unknown) => log.error({ err: error }, 'waking conversion workflows failed; the sweeper will wake them'),
    );
}

/** What follows every commit of received messages, whichever face took them (`/v1/batch`, a webhook source): metrics, then the conversions' wake-up. */
export function createAfterCommit(metrics: IngestMetrics, startConversions: StartConversions) {
  return (messageCount: number, result: BatchResult, log: FastifyBaseLogger): void => {
    metrics.batchSize.observe(messageCount);
    metrics.eventsStored.inc(result.stored);
    metrics.duplicates.inc(result.duplicates);
    metrics.conversionsCreated.inc(result.conversions.length);
    startInBackground(startConversions, result.conversions, log);
  };
}

/** Segment's libraries read only `success`; a person sending by hand (or a webhook's log) learns why nothing new appeared. */
export function acceptedAnswer(result: BatchResult): AcceptedBody {
  if (result.duplicates === 0 && result.repeatedConversions === 0) return { success: true };
  return { success: true, duplicates: { messages: result.duplicates, conversions: result.repeatedConversions } };
}
