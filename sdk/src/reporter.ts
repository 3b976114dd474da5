import { plural, type SignalboxDeliveryError } from './errors.js';

export type ErrorListener = (error: SignalboxDeliveryError) => void;

/** Counters of what became of queued events since the client was created. */
export interface ClientStats {
  /** Waiting in the queue (and calls waiting for room in it). */
  queued: number;
  /** In requests that have not finished (including retry waits). */
  inFlight: number;
  delivered: number;
  /** Given up: refused by the ingest API, out of retries, or abandoned at close. */
  failed: number;
  /** Dropped from a full queue. */
  dropped: number;
}

/**
 * Debug lines, `error` listeners and the counters: everything the client tells the outside about deliveries. A
 * failure nobody listens to is not silent either: the first becomes a process warning (`SIGNALBOX_UNHANDLED_FAILURE`).
 */
export class Reporter {
  delivered = 0;
  failed = 0;
  dropped = 0;
  private readonly listeners: ErrorListener[] = [];
  private warned = false;

  constructor(
    private readonly debugEnabled: boolean,
    private readonly logger: (line: string) => void,
  ) {}

  debug(text: string): void {
    if (this.debugEnabled) this.logger(`[Signalbox] ${text}`);
  }

  get debugging(): boolean {
    return this.debugEnabled;
  }

  addListener(listener: ErrorListener): void {
    this.listeners.push(listener);
  }

  removeListener(listener: ErrorListener): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  deliveredEvents(count: number): void {
    this.delivered += count;
    this.debug(`Event sent successfully (${plural(count, 'event')})`);
  }

  failure(error: SignalboxDeliveryError): void {
    if (error.reason === 'queue_overflow') this.dropped += error.eventCount;
    else if (error.reason !== 'invalid_call') this.failed += error.eventCount;
    this.debug(error.message);
    if (this.listeners.length === 0) {
      this.warnOnce(error);
      return;
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(error);
      } catch (thrown) {
        // A throwing listener must not turn into an unhandled rejection inside the delivery chain.
        console.error('[Signalbox] an error listener threw:', thrown);
      }
    }
  }

  private warnOnce(error: SignalboxDeliveryError): void {
    if (this.warned) return;
    this.warned = true;
    process.emitWarning(
      `${error.message}. Add a listener with client.on('error', …) to handle such failures; this warning is given once per client, and getStats() counts them.`,
      { type: 'SignalboxWarning', code: 'SIGNALBOX_UNHANDLED_FAILURE' },
    );
  }
}
