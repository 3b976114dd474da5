import { Batch } from './batch.js';
import { pendingCall, type PendingCall } from './call-promise.js';
import type { Outcome } from './delivery.js';
import { plural, SignalboxDeliveryError, SignalboxFlushError, type FlushResult } from './errors.js';
import { EventQueue } from './event-queue.js';
import { EventRun, type EventSet } from './event-set.js';
import { MAX_CONCURRENT_REQUESTS } from './limits.js';
import type { Reporter } from './reporter.js';
import type { RetryWaits } from './retry-waits.js';

export interface DispatcherOptions {
  flushAt: number;
  flushInterval: number;
  maxQueueSize: number;
  /** Wait for room in a full queue rather than dropping the oldest event. */
  waitWhenFull: boolean;
  /** Sends a batch with its retries; resolves with what became of its events. */
  deliver: (batch: Batch) => Promise<Outcome[]>;
  reporter: Reporter;
  retryWaits: RetryWaits;
  /** Told when events start waiting to be sent and when none are left (the process-wide exit hook). */
  onBusy: () => void;
  onIdle: () => void;
  /** Given the error of a call waiting for room that nobody handled. */
  onUnobserved: (error: Error) => void;
}

/** Events lost (failed or dropped) and why. */
interface Losses {
  failed: number;
  dropped: number;
  reasons: Set<string>;
}

/** A flush() or close() caller: waits until every event up to `throughSeq` is delivered, failed or dropped. */
interface FlushWaiter {
  throughSeq: number;
  totalCount: number;
  delivered: number;
  losses: Losses;
  settle: (pendingCount: number) => void;
}

const noLosses = (): Losses => ({ failed: 0, dropped: 0, reasons: new Set() });

/**
 * Decides when queued events go out. A batch is sent when `flushAt` events are queued, when `flushInterval` has
 * passed since the timer was armed, or when flush() asks for everything up to now; each batch takes as many queued
 * events as the limits allow. At most MAX_CONCURRENT_REQUESTS batches are in flight: under load the queue grows
 * and the next batch is bigger, rather than requests piling up. Every lost event is counted for the next flush() or
 * close() to report, whenever it was lost.
 */
export class Dispatcher {
  private readonly queue = new EventQueue();
  private readonly inFlight = new Set<Batch>();
  private readonly waiters: FlushWaiter[] = [];
  /** Calls waiting for room in a full queue (`waitWhenFull`), in order. */
  private readonly roomWaiters: { json: string; call: PendingCall }[] = [];
  /** Losses of events no flush() waits for, kept for the next one. */
  private unclaimed = noLosses();
  /** Every event up to this sequence number is to be sent now, regardless of flushAt. */
  private flushThroughSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private abandoned = false;
  private busy = false;
  private unreportedDrops = 0;

  constructor(private readonly options: DispatcherOptions) {}

  get queuedCount(): number {
    return this.queue.length + this.roomWaiters.length;
  }

  get inFlightCount(): number {
    let count = 0;
    for (const batch of this.inFlight) count += batch.count;
    return count;
  }

  /** Queues one message's JSON; with `waitWhenFull` and a full queue, returns a promise that resolves once queued. */
  enqueue(json: string): Promise<void> | undefined {
    if (this.options.waitWhenFull && (this.roomWaiters.length > 0 || this.queue.length >= this.options.maxQueueSize)) {
      const call = pendingCall(this.options.onUnobserved);
      this.roomWaiters.push({ json, call });
      this.markBusy();
      this.pump();
      return call.promise;
    }
    this.push(json);
    this.pump();
    return undefined;
  }

  /**
   * Sends everything queued now. Settles when all of it and every batch already in flight is settled, or at the
   * deadline: resolves when every event was delivered, rejects with a SignalboxFlushError counting those that were
   * not (also those lost since the previous flush, e.g. dropped from a full queue).
   */
  flush(timeoutMs?: number): Promise<FlushResult> {
    const throughSeq = this.queue.lastSeq + this.roomWaiters.length;
    const losses = this.unclaimed;
    this.unclaimed = noLosses();
    const lost = losses.failed + losses.dropped;
    if (this.isSettledThrough(throughSeq)) {
      return lost === 0 ? Promise.resolve({ delivered: 0 }) : Promise.reject(flushError(lost, losses, 0));
    }
    this.flushThroughSeq = Math.max(this.flushThroughSeq, throughSeq);
    const release = this.options.retryWaits.hold();
    const promise = new Promise<FlushResult>((resolve, reject) => {
      let deadline: NodeJS.Timeout | undefined;
      const waiter: FlushWaiter = {
        throughSeq,
        totalCount: this.pendingThrough(throughSeq) + lost,
        delivered: 0,
        losses,
        settle: (pendingCount) => {
          if (deadline !== undefined) clearTimeout(deadline);
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          release();
          const { failed, dropped } = waiter.losses;
          if (failed + dropped + pendingCount === 0) resolve({ delivered: waiter.delivered });
          else reject(flushError(waiter.totalCount, waiter.losses, pendingCount, timeoutMs));
        },
      };
      this.waiters.push(waiter);
      if (timeoutMs !== undefined) {
        deadline = setTimeout(() => waiter.settle(this.pendingThrough(throughSeq)), timeoutMs);
        deadline.unref();
      }
    });
    this.pump();
    return promise;
  }

  /** Stops the interval timer for good; events already queued still go out through flush(). */
  stop(): void {
    this.stopped = true;
    this.disarmTimer();
  }

  /**
   * Gives up on everything still queued or in flight (close's deadline passed): retry waits end, calls waiting for
   * room are refused, and one report counts the events left behind.
   */
  abandon(reason: Error): void {
    if (this.abandoned) return;
    this.abandoned = true;
    this.stop();
    this.options.retryWaits.abandon();
    const left = this.queue.length + this.inFlightCount + this.roomWaiters.length;
    for (const waiter of this.waiters) addLosses(waiter.losses, this.pendingThrough(waiter.throughSeq), false, reason.message);
    for (const { call } of this.roomWaiters.splice(0)) call.reject(reason);
    this.queue.dropOldest(this.queue.length);
    this.inFlight.clear();
    this.settleWaiters();
    if (left > 0) {
      this.options.reporter.failure(new SignalboxDeliveryError({ reason: 'abandoned', eventCount: left, detail: reason.message }));
    }
    this.markIdle();
  }

  private push(json: string): void {
    this.queue.push(json);
    this.markBusy();
    const excess = this.queue.length - this.options.maxQueueSize;
    if (excess > 0) this.drop(this.queue.dropOldest(excess));
  }

  private pump(): void {
    if (this.abandoned) return;
    do {
      while (this.inFlight.size < MAX_CONCURRENT_REQUESTS && this.queue.length > 0 && this.dueNow()) {
        this.send(Batch.take(this.queue));
      }
    } while (this.admitWaitingCall());
    if (this.queue.length === 0) this.disarmTimer();
    else if (!this.stopped && this.timer === undefined) this.armTimer();
    if (this.queue.length === 0 && this.inFlight.size === 0 && this.roomWaiters.length === 0) this.markIdle();
  }

  /** Queues the first call waiting for room, if there is room now. */
  private admitWaitingCall(): boolean {
    if (this.roomWaiters.length === 0 || this.queue.length >= this.options.maxQueueSize) return false;
    const { json, call } = this.roomWaiters.shift() as { json: string; call: PendingCall };
    this.push(json);
    call.resolve();
    return true;
  }

  private dueNow(): boolean {
    return this.queue.length >= this.options.flushAt || this.queue.firstSeq <= this.flushThroughSeq;
  }

  private send(batch: Batch): void {
    this.inFlight.add(batch);
    this.options.reporter.debug(`Flushing ${plural(batch.count, 'event')}`);
    this.options.deliver(batch).then(
      (outcomes) => this.finish(batch, outcomes),
      (error: unknown) => this.finish(batch, [{ events: batch.events, error: unexpectedFailure(batch, error) }]),
    );
  }

  private finish(batch: Batch, outcomes: Outcome[]): void {
    if (!this.inFlight.delete(batch)) return; // abandoned meanwhile, and already reported
    for (const { events, error } of outcomes) {
      if (error === undefined) this.delivered(events);
      else this.lose(events, error, error.detail);
    }
    this.settleWaiters();
    this.pump();
  }

  private delivered(events: EventSet): void {
    for (const waiter of this.waiters) waiter.delivered += events.countThrough(waiter.throughSeq);
    this.options.reporter.deliveredEvents(events.count);
  }

  /** Counts lost events for the flush() callers waiting for them, or for the next one; reports them. */
  private lose(events: EventSet, error: SignalboxDeliveryError | undefined, reason: string): void {
    const dropped = error === undefined;
    let claimed = 0;
    for (const waiter of this.waiters) {
      const affected = events.countThrough(waiter.throughSeq);
      claimed = Math.max(claimed, affected);
      addLosses(waiter.losses, affected, dropped, reason);
    }
    addLosses(this.unclaimed, events.count - claimed, dropped, reason);
    if (error !== undefined) this.options.reporter.failure(error);
  }

  private drop(run: EventRun): void {
    this.lose(run, undefined, this.overflowDetail());
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
    this.options.reporter.failure(new SignalboxDeliveryError({ reason: 'queue_overflow', eventCount: count, detail: this.overflowDetail() }));
  }

  private overflowDetail(): string {
    return `the queue is full (maxQueueSize ${this.options.maxQueueSize})`;
  }

  private settleWaiters(): void {
    for (const waiter of [...this.waiters]) {
      if (this.isSettledThrough(waiter.throughSeq)) waiter.settle(0);
    }
  }

  /** Events up to `seq` still queued, in flight or waiting for room. */
  private pendingThrough(seq: number): number {
    let count = new EventRun(this.queue.firstSeq, this.queue.length).countThrough(seq);
    for (const batch of this.inFlight) count += batch.events.countThrough(seq);
    return count + Math.max(0, Math.min(this.roomWaiters.length, seq - this.queue.lastSeq));
  }

  private isSettledThrough(seq: number): boolean {
    return this.pendingThrough(seq) === 0;
  }

  private markBusy(): void {
    if (this.busy || this.abandoned) return;
    this.busy = true;
    this.options.onBusy();
  }

  private markIdle(): void {
    if (!this.busy) return;
    this.busy = false;
    this.options.onIdle();
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

function addLosses(losses: Losses, count: number, dropped: boolean, reason: string): void {
  if (count <= 0) return;
  if (dropped) losses.dropped += count;
  else losses.failed += count;
  losses.reasons.add(reason);
}

function flushError(totalCount: number, losses: Losses, pendingCount: number, timeoutMs?: number): SignalboxFlushError {
  const reasons = [...losses.reasons];
  if (pendingCount > 0) reasons.push(`${plural(pendingCount, 'event')} still queued or in flight after the timeout of ${timeoutMs} ms`);
  return new SignalboxFlushError(
    { totalCount, failedCount: losses.failed + losses.dropped + pendingCount, droppedCount: losses.dropped, pendingCount },
    reasons,
  );
}

function unexpectedFailure(batch: Batch, error: unknown): SignalboxDeliveryError {
  return new SignalboxDeliveryError({
    reason: 'rejected',
    eventCount: batch.count,
    detail: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  });
}
