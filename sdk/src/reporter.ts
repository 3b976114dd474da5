import { plural, type DeliveryError } from './errors';

export type ErrorListener = (error: DeliveryError) => void;

/** Counters of what became of queued events since the client was created. */
export interface ClientStats {
  /** Waiting in the queue. */
  queued: number;
  /** In requests that have not finished (including retry waits). */
  inFlight: number;
  delivered: number;
  /** Given up after a rejection or the last retry. */
  failed: number;
  /** Dropped from a full queue. */
  dropped: number;
}

/** Debug lines, `error` listeners and the counters: everything the client tells the outside about deliveries. */
export class Reporter {
  delivered = 0;
  failed = 0;
  dropped = 0;
  private readonly listeners: ErrorListener[] = [];

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

  failure(error: DeliveryError): void {
    if (error.reason === 'queue_overflow') this.dropped += error.eventCount;
    else this.failed += error.eventCount;
    this.debug(error.message);
    for (const listener of [...this.listeners]) {
      try {
        listener(error);
      } catch (thrown) {
        // A throwing listener must not turn into an unhandled rejection inside the delivery chain.
        console.error('[Signalbox] an error listener threw:', thrown);
      }
    }
  }
}
