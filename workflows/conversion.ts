import { ActivityFailure, ApplicationFailure, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities, DeliveryFailureDetails, Outcome } from '../activities/types';
import { ConversionStatusAttribute } from './search-attributes';

export interface DeliveryRetryOptions {
  /** Delivery attempts before the conversion is recorded failed. Default 12 (about 20 minutes of backoff). */
  maximumAttempts?: number;
  /** First retry delay in milliseconds; doubles up to five minutes. Default 1,000. */
  initialIntervalMs?: number;
}

/** Row IDs only: the workflow's input and result are kept in history and shown in the UI, so they carry no PII. */
export interface ConversionInput {
  conversionId: string;
  delivery?: DeliveryRetryOptions;
}

/*
 * Local activities: each step's result is recorded in history (a marker) and never re-run on replay, but the steps run
 * inside the workflow task instead of a round trip each through the server's task queues, which costs the engine about
 * three times the CPU (BENCHMARKS.md, "Conversion pipeline"). Backoffs longer than
 * `localRetryThreshold` become durable timers.
 */
const steps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  // Database outages are waited out: an accepted conversion is never dropped.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

function deliveryActivity(options: DeliveryRetryOptions = {}) {
  return proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    localRetryThreshold: '10 seconds',
    retry: {
      initialInterval: options.initialIntervalMs ?? 1_000,
      backoffCoefficient: 2,
      maximumInterval: '5 minutes',
      maximumAttempts: options.maximumAttempts ?? 12,
    },
  }).deliverToTikTok;
}

/** A delivery that ended in failure; local activities surface it as the ApplicationFailure itself or wrapped. */
function failedDelivery(error: unknown): Outcome | undefined {
  const failure = error instanceof ActivityFailure ? (error.cause ?? error) : error;
  if (!(failure instanceof ApplicationFailure) && !(error instanceof ActivityFailure)) return undefined;
  const details = failure instanceof ApplicationFailure ? (failure.details?.[0] as DeliveryFailureDetails | undefined) : undefined;
  const rejected = failure instanceof ApplicationFailure && failure.nonRetryable;
  return {
    status: 'failed',
    reason: rejected ? 'tiktok_rejected' : 'delivery_retries_exhausted',
    tiktokCode: details?.code ?? null,
    tiktokMessage: details?.message ?? (failure as Error).message,
    tiktokRequestId: details?.requestId ?? null,
  };
}

/** One conversion, step by step (DESIGN.md): prepare, resolve identity, check the window, hash, deliver, record. */
export async function conversionWorkflow({ conversionId, delivery }: ConversionInput): Promise<Outcome> {
  async function finish(outcome: Outcome): Promise<Outcome> {
    await steps.recordOutcome(conversionId, outcome);
    upsertSearchAttributes([{ key: ConversionStatusAttribute, value: outcome.status }]);
    return outcome;
  }

  const prepared = await steps.prepareConversion(conversionId);
  if (prepared.state === 'finished') {
    upsertSearchAttributes([{ key: ConversionStatusAttribute, value: prepared.status }]);
    return { status: prepared.status === 'pending' ? 'failed' : prepared.status, reason: null };
  }
  if (prepared.state === 'skip') return finish({ status: 'skipped', reason: prepared.reason });

  await steps.resolveIdentity(conversionId);
  const window = await steps.checkAttributionWindow(conversionId);
  if (!window.eligible) return finish({ status: 'skipped', reason: window.reason });

  const payload = await steps.hashUserData(conversionId);
  if (!payload.ready) return finish({ status: 'skipped', reason: payload.reason });

  try {
    const receipt = await deliveryActivity(delivery)(conversionId);
    return finish({
      status: 'delivered',
      reason: payload.testMode ? 'test_mode' : null,
      tiktokCode: receipt.code,
      tiktokMessage: receipt.message,
      tiktokRequestId: receipt.requestId,
    });
  } catch (error) {
    const failed = failedDelivery(error);
    if (failed === undefined) throw error;
    return finish(failed);
  }
}
