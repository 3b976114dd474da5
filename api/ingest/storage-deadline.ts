import { StorageUnavailableError } from '../../db/storage-errors';
/** Default of `INGEST_STORAGE_DEADLINE_MS`: half the client library's 10 s request timeout. */
export const DEFAULT_STORAGE_DEADLINE_MS = 5_000;

/**
 * A request's storage work did not finish within its deadline: answered 503 with Retry-After. Retrying is safe: a
 * commit that still lands afterwards holds the same messageIds, so the retry stores nothing twice.
 */
export class StorageDeadlineError extends StorageUnavailableError {
  constructor(readonly deadlineMs: number) {
    super(`the database did not finish storing this request within INGEST_STORAGE_DEADLINE_MS (${deadlineMs} ms)`);
    this.name = 'StorageDeadlineError';
  }
}

export interface StorageBudget {
  /**
   * Runs one piece of the request's storage work with what is left of its deadline. Rejects with StorageDeadlineError
   * once the deadline passes, aborting `signal` then; the work itself may still finish later.
   */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/**
 * One deadline for all the storage work of a request (its API key lookup, waiting for a connection, the commit),
 * counted only while that work runs: reading a slow client's body does not use it up.
 */
export function createStorageBudget(deadlineMs: number, now: () => number = performance.now.bind(performance)): StorageBudget {
  let spentMs = 0;
  return {
    async run(work) {
      const remainingMs = deadlineMs - spentMs;
      if (remainingMs <= 0) throw new StorageDeadlineError(deadlineMs);
      const startedAt = now();
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          const error = new StorageDeadlineError(deadlineMs);
          controller.abort(error);
          reject(error);
        }, remainingMs);
      });
      try {
        return await Promise.race([work(controller.signal), expired]);
      } finally {
        clearTimeout(timer);
        spentMs += now() - startedAt;
      }
    },
  };
}
