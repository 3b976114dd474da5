import { Batch } from './batch';
import { DeliveryError, FlushError, plural } from './errors';
import { EventQueue, type EventRun } from './event-queue';
import { MAX_CONCURRENT_REQUESTS } from './limits';
import type { Reporter } from './reporter';
import type { RetryWaits } from './retry-waits';

export interface DispatcherOptions {
  flushAt: number;
  flushInterval: number;
  maxQueueSize: number;
  /** Sends a batch with its retries; resolves with the failure, if any. */
  deliver: (batch: Batch) => Promise<DeliveryError | undefined>;
  reporter: Reporter;
  retryWaits: RetryWaits;
}

/** A flush() caller: waits until every event up to `throughSeq` is delivered, failed or dropped. */
interface FlushWaiter {
  throughSeq: number;
  totalCount: number;
  failedCount: number;
  reasons: Set<string>;
  settle: (error?: FlushError) => void;
}

/**
 * Decides when queued events go out. A batch is sent when `flushAt` events are queued, when `flushInterval` has
 * passed since the timer was armed, or when flush() asks for everything up to now; each batch takes as many queued
 * events as the limits allow. At most MAX_CONCURRENT_REQUESTS batches are in flight: under load the queue grows
 * and the next batch is bigger, rather than requests piling up.
 */
export class Dispatcher {
  private readonly queue = new EventQueue();
  private readonly inFlight = new Set<Batch>();
  private readonly waiters: FlushWaiter[] = [];
  /** Every event up to this sequence number is to be sent now, regardless of flushAt. */
  private flushThroughSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private unreportedDrops = 0;

  constructor(private readonly options: DispatcherOptions) {}

  get queuedCount(): number {
    return this.queue.length;
  }

  get inFlightCount(): number {
    let count = 0;
    for (const batch of this.inFlight) count += batch.count;
    return count;
  }

  /** Queues one message's JSON. */
  enqueue(json: string): void {
    this.queue.push(json);
    const excess = this.queue.length - this.options.maxQueueSize;
    if (excess > 0) this.drop(this.queue.dropOldest(excess));
    this.pump();
  }

  /** Sends everything queued now; resolves when all of it and every batch already in flight is settled. */
  flush(): Promise<void> {
    const throughSeq = this.queue.lastSeq;
    if (this.isSettledThrough(throughSeq)) return Promise.resolve();
    this.flushThroughSeq = Math.max(this.flushThroughSeq, throughSeq);
    const release = this.options.retryWaits.hold();
    const promise = new Promise<void>((resolve, reject) => {
      this.waiters.push({
        throughSeq,
        totalCount: this.queue.length + this.inFlightCount,
        failedCount: 0,
        reasons: new Set(),
        settle: (error) => {
          release();
          if (error) reject(error);
          else resolve();
        },
      });
    });
    this.pump();
    return promise;
  }

  /** Stops the interval timer for good; events already queued still go out through flush(). */
  stop(): void {
    this.stopped = true;
    this.disarmTimer();
  }

  private pump(): void {
    while (this.inFlight.size < MAX_CONCURRENT_REQUESTS && this.queue.length > 0 && this.dueNow()) {
      this.send(new Batch(this.queue));
    }
    if (this.queue.length === 0) this.disarmTimer();
    else if (!this.stopped && this.timer === undefined) this.armTimer();
  }

  private dueNow(): boolean {
    return this.queue.length >= this.options.flushAt || this.queue.firstSeq <= this.flushThroughSeq;
  }

  private send(batch: Batch): void {
    this.inFlight.add(batch);
    this.options.reporter.debug(`Flushing ${plural(batch.count, 'event')}`);
    this.options.deliver(batch).then(
      (failure) => this.finish(batch, failure),
      (error: unknown) => this.finish(batch, unexpectedFailure(batch, error)),
    );
  }

  private finish(batch: Batch, failure: DeliveryError | undefined): void {
    this.inFlight.delete(batch);
    if (failure) this.fail(batch, failure);
    else this.options.reporter.deliveredEvents(batch.count);
    this.settleWaiters();
    this.pump();
  }

  private drop(run: EventRun): void {
    for (const waiter of this.waiters) countFailures(waiter, run, this.overflowDetail());
    this.settleWaiters();
    // Report drops once per tick: a burst that overflows the queue by thousands gives one report, not thousands.
    if (this.unreportedDrops === 0) {
      Promise.resolve().then(() => this.reportDrops(), () => undefined);
    }
    this.unreportedDrops += run.count;
  }

  private reportDrops(): void {
    const count = this.unreportedDrops;
    this.unreportedDrops = 0;
    this.options.reporter.failure(
      new DeliveryError({
        reason: 'queue_overflow',
        eventCount: count,
        detail: this.overflowDetail(),
      }),
    );
  }

  private overflowDetail(): string {
    return `the queue is full (maxQueueSize ${this.options.maxQueueSize})`;
  }

  private fail(batch: Batch, failure: DeliveryError): void {
    for (const waiter of this.waiters) countFailures(waiter, batch, failure.detail);
    this.options.reporter.failure(failure);
  }

  private settleWaiters(): void {
    for (const waiter of [...this.waiters]) {
      if (!this.isSettledThrough(waiter.throughSeq)) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.settle(
        waiter.failedCount > 0
          ? new FlushError(waiter.failedCount, waiter.totalCount, [...waiter.reasons])
          : undefined,
      );
    }
  }

  private isSettledThrough(seq: number): boolean {
    if (this.queue.length > 0 && this.queue.firstSeq <= seq) return false;
    for (const batch of this.inFlight) if (batch.firstSeq <= seq) return false;
    return true;
  }

  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushThroughSeq = Math.max(this.flushThroughSeq, this.queue.lastSeq);
      this.pump();
    }, this.options.flushInterval);
    this.timer.unref();
  }

  private disarmTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function countFailures(waiter: FlushWaiter, run: EventRun, reason: string): void {
  const affected = Math.min(waiter.throughSeq, run.firstSeq + run.count - 1) - run.firstSeq + 1;
  if (affected <= 0) return;
  waiter.failedCount += affected;
  waiter.reasons.add(reason);
}

function unexpectedFailure(batch: Batch, error: unknown): DeliveryError {
  return new DeliveryError({
    reason: 'rejected',
    eventCount: batch.count,
    detail: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  });
}
