import { setTimeout as sleep } from 'node:timers/promises';

export interface UntilDoneOptions {
  /** Told about each failed attempt and how long until the next. */
  onFailure(error: unknown, retryInMs: number): void;
  firstWaitMs?: number;
  maxWaitMs?: number;
  wait?: (ms: number) => Promise<unknown>;
}

/**
 * Runs a start-up step until it succeeds, waiting 1 s, 2 s, 4 s… (at most 30 s) between attempts: a worker started
 * while PostgreSQL or Temporal is down waits for them, as the running worker does, instead of exiting.
 */
export async function untilDone<T>(step: () => Promise<T>, { onFailure, firstWaitMs = 1_000, maxWaitMs = 30_000, wait = sleep }: UntilDoneOptions): Promise<T> {
  for (let waitMs = firstWaitMs; ; waitMs = Math.min(waitMs * 2, maxWaitMs)) {
    try {
      return await step();
    } catch (error) {
      onFailure(error, waitMs);
      await wait(waitMs);
    }
  }
}
