import type { Batch } from './batch';
import { DeliveryError, plural } from './errors';
import { gzipParts } from './gzip';
import { classifyResponse, classifyTransportError, retryDelayMs, type AttemptResult } from './retry-policy';
import type { Transport } from './transport';

export interface DeliveryOptions {
  transport: Transport;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  retryLimit: number;
  wait: (ms: number) => Promise<void>;
  /** Called before each retry wait, for debug output. */
  onRetry: (line: string) => void;
}

/** Sends one batch, retrying per retry-policy.ts. Resolves with the failure instead of rejecting. */
export async function deliverBatch(batch: Batch, options: DeliveryOptions): Promise<DeliveryError | undefined> {
  const attempts = options.retryLimit + 1;
  for (let attempt = 1; ; attempt += 1) {
    const result = await attemptOnce(batch, options);
    if (result.outcome === 'delivered') return undefined;
    const { detail, statusCode } = result;
    if (result.outcome === 'reject') {
      return new DeliveryError({ reason: 'rejected', eventCount: batch.count, detail, statusCode, attempts: attempt });
    }
    if (attempt === attempts) {
      return new DeliveryError({ reason: 'retries_exhausted', eventCount: batch.count, detail, statusCode, attempts });
    }
    const delayMs = retryDelayMs(result, attempt, Math.random);
    options.onRetry(
      `Retrying ${plural(batch.count, 'event')} in ${delayMs} ms (attempt ${attempt + 1} of ${attempts}): ${detail}`,
    );
    await options.wait(delayMs);
  }
}

async function attemptOnce(batch: Batch, options: DeliveryOptions): Promise<AttemptResult> {
  const sentAt = new Date();
  const body = await gzipParts(batch.bodyParts(sentAt));
  try {
    const response = await options.transport.send({
      url: options.url,
      headers: options.headers,
      body,
      timeoutMs: options.timeoutMs,
    });
    return classifyResponse(response, new Date());
  } catch (error) {
    return classifyTransportError(error);
  }
}
