import { rejectedCall } from './call-promise.js';
import { resolveConfig, type ResolvedConfig, type SignalboxConfig } from './config.js';
import { createDelivery } from './delivery.js';
import { Dispatcher } from './dispatcher.js';
import { SignalboxClosedError, SignalboxDeliveryError, type FlushResult } from './errors.js';
import { flushBeforeExit } from './exit-hook.js';
import { createHttpTransport } from './http-transport.js';
import { generateUuid } from './ids.js';
import { LIBRARY_NAME, LIBRARY_VERSION } from './library.js';
import { MAX_CONCURRENT_REQUESTS } from './limits.js';
import {
  aliasJson,
  groupJson,
  identifyJson,
  trackJson,
  viewJson,
  type MessageOptions,
  type PageOptions,
  type Properties,
  type ScreenOptions,
  type TrackOptions,
  type Traits,
} from './messages.js';
import { Reporter, type ClientStats, type ErrorListener } from './reporter.js';
import { RateLimitPause, RetryWaits } from './retry-waits.js';
import type { Transport } from './transport.js';

const QUEUED: Promise<void> = Promise.resolve();
const NOTHING_TO_SEND: Promise<FlushResult> = Promise.resolve({ delivered: 0 });

/** Deadline of `close()` when none is given: inside the 30 s a container usually gets to shut down. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

/** Options of `flush()` and `close()`. */
export interface FlushOptions {
  /** Settle by this many milliseconds: what is not delivered by then is counted in the rejection. */
  timeoutMs?: number | undefined;
}

/**
 * The Signalbox client. Calls check the event with the ingest API's own rules and queue it; batches go out in the
 * background, and their failures reach `on('error')` listeners (or one process warning), never the process as
 * unhandled rejections.
 */
export class Signalbox {
  private readonly config: ResolvedConfig;
  private readonly reporter: Reporter;
  private readonly dispatcher: Dispatcher | undefined;
  private readonly transport: Transport | undefined;
  private readonly anonymousId = generateUuid();
  private closing: Promise<FlushResult> | undefined;

  constructor(config: string | SignalboxConfig) {
    this.config = resolveConfig(config);
    this.reporter = new Reporter(this.config.debug, this.config.logger);
    if (!this.config.enabled) return;
    this.transport = this.config.transport ?? createHttpTransport(MAX_CONCURRENT_REQUESTS);
    const retryWaits = new RetryWaits();
    const deliver = createDelivery({
      transport: this.transport,
      url: this.config.batchUrl,
      headers: {
        Authorization: `Bearer ${this.config.apiKey}`,
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'User-Agent': `${LIBRARY_NAME}/${LIBRARY_VERSION} node/${process.version}`,
      },
      timeoutMs: this.config.timeout,
      retryLimit: this.config.retryLimit,
      retryHorizonMs: this.config.retryHorizon,
      waits: retryWaits,
      rateLimit: new RateLimitPause(),
      onRetry: (line: string) => this.reporter.debug(line),
    });
    // Flushes what is queued when the event loop empties; the flush's sockets then keep the process alive until it
    // is done. Failures are reported to listeners, so nothing is left to handle here.
    const exitHook = flushBeforeExit(() => {
      this.dispatcher?.flush().catch(() => undefined);
    });
    this.dispatcher = new Dispatcher({
      flushAt: this.config.flushAt,
      flushInterval: this.config.flushInterval,
      maxQueueSize: this.config.maxQueueSize,
      waitWhenFull: this.config.onQueueFull === 'wait',
      deliver,
      reporter: this.reporter,
      retryWaits,
      onBusy: exitHook.markBusy,
      onIdle: exitHook.markIdle,
      onUnobserved: (error) => this.reportUnobserved(error),
    });
  }

  /** Queues an event. Needs `event` and `userId` or `anonymousId` (both link the two). */
  track(options: TrackOptions): Promise<void> {
    return this.enqueue('track()', () => trackJson(options), () => String(options.event).trim());
  }

  /** Attaches traits to a user. `options.anonymousId` links an anonymous visitor to this user. */
  identify(userId: string, traits?: Traits, options?: MessageOptions): Promise<void> {
    return this.enqueue('identify()', () => identifyJson(userId, traits, options));
  }

  /** Associates a user with a group (account, organization). */
  group(userId: string, groupId: string, traits?: Traits, options?: MessageOptions): Promise<void> {
    return this.enqueue('group()', () => groupJson(userId, groupId, traits, options));
  }

  /** Records a server-rendered page view, by a known user or (object form) an anonymous visitor. */
  page(userId: string, name?: string, properties?: Properties, options?: MessageOptions): Promise<void>;
  page(options: PageOptions): Promise<void>;
  page(userIdOrOptions: string | PageOptions, name?: string, properties?: Properties, options?: MessageOptions): Promise<void> {
    return this.enqueue('page()', () => viewJson('page', userIdOrOptions, name, properties, options));
  }

  /** Records a mobile app screen view, by a known user or (object form) an anonymous one. */
  screen(userId: string, name?: string, properties?: Properties, options?: MessageOptions): Promise<void>;
  screen(options: ScreenOptions): Promise<void>;
  screen(userIdOrOptions: string | ScreenOptions, name?: string, properties?: Properties, options?: MessageOptions): Promise<void> {
    return this.enqueue('screen()', () => viewJson('screen', userIdOrOptions, name, properties, options));
  }

  /** Tells Signalbox that `previousId` (an earlier user ID or anonymous ID) and `userId` are the same person. */
  alias(userId: string, previousId: string, options?: MessageOptions): Promise<void> {
    return this.enqueue('alias()', () => aliasJson(userId, previousId, options));
  }

  /**
   * Sends everything queued now. Resolves with `{ delivered }` once all of it, and every batch already in flight,
   * is delivered; rejects with a SignalboxFlushError counting what was not (failed, dropped since the previous flush,
   * or still pending at `timeoutMs`). Without `timeoutMs` it waits for the retries, up to the retry horizon.
   */
  flush(options: FlushOptions = {}): Promise<FlushResult> {
    let timeoutMs: number | undefined;
    try {
      timeoutMs = resolveTimeout('flush', options);
    } catch (error) {
      return this.refuse(error as Error);
    }
    return this.dispatcher === undefined ? NOTHING_TO_SEND : this.dispatcher.flush(timeoutMs);
  }

  /**
   * Flushes, then stops timers and releases sockets; later calls reject. Settles by `timeoutMs` (default 10 s):
   * what is not delivered by then is abandoned and counted in the SignalboxFlushError it rejects with.
   * Idempotent: returns the same promise.
   */
  close(options: FlushOptions = {}): Promise<FlushResult> {
    if (this.closing) return this.closing;
    let timeoutMs: number;
    try {
      timeoutMs = resolveTimeout('close', options) ?? DEFAULT_CLOSE_TIMEOUT_MS;
    } catch (error) {
      return this.refuse(error as Error);
    }
    const dispatcher = this.dispatcher;
    if (dispatcher === undefined) {
      this.closing = NOTHING_TO_SEND;
      return this.closing;
    }
    dispatcher.stop();
    const release = (): void => {
      dispatcher.abandon(new Error(`close() gave up after ${timeoutMs} ms`));
      this.transport?.close?.();
    };
    this.closing = dispatcher.flush(timeoutMs).then(
      (result) => {
        release();
        return result;
      },
      (error: unknown) => {
        release();
        throw error;
      },
    );
    return this.closing;
  }

  /** This client's anonymous ID (a UUID), to pass as `anonymousId` when no web-script ID is at hand. */
  getAnonymousId(): string {
    return this.anonymousId;
  }

  /** Reports events that failed for good, were dropped, or calls refused that nobody handled. */
  on(event: 'error', listener: ErrorListener): this {
    this.reporter.addListener(requireErrorEvent(event, listener));
    return this;
  }

  off(event: 'error', listener: ErrorListener): this {
    this.reporter.removeListener(requireErrorEvent(event, listener));
    return this;
  }

  getStats(): ClientStats {
    return {
      queued: this.dispatcher?.queuedCount ?? 0,
      inFlight: this.dispatcher?.inFlightCount ?? 0,
      delivered: this.reporter.delivered,
      failed: this.reporter.failed,
      dropped: this.reporter.dropped,
    };
  }

  /** `label` names the event in the debug line: the track event's name, or the call's. */
  private enqueue(call: string, build: () => string, label = (): string => call.slice(0, -2)): Promise<void> {
    let json: string;
    try {
      if (this.closing) throw new SignalboxClosedError(call);
      json = build();
    } catch (error) {
      return this.refuse(error as Error);
    }
    if (this.reporter.debugging) this.reporter.debug(`Event queued: ${label()}`);
    return this.dispatcher?.enqueue(json) ?? QUEUED;
  }

  /** A rejected call's promise, which never becomes an unhandled rejection. */
  private refuse<T>(error: Error): Promise<T> {
    return rejectedCall(error, (unobserved) => this.reportUnobserved(unobserved)) as Promise<never>;
  }

  /** A refused call whose promise nobody handled: reported like a delivery failure, never an unhandled rejection. */
  private reportUnobserved(error: Error): void {
    this.reporter.failure(new SignalboxDeliveryError({ reason: 'invalid_call', eventCount: 1, detail: error.message }));
  }
}

function resolveTimeout(call: string, options: FlushOptions): number | undefined {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${call}(): expected an options object like { timeoutMs: 5000 }`);
  const { timeoutMs } = options;
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`${call}(): timeoutMs must be a whole number of milliseconds, got ${String(timeoutMs)}`);
  }
  return timeoutMs;
}

function requireErrorEvent(event: string, listener: unknown): ErrorListener {
  if (event !== 'error') throw new TypeError(`Signalbox emits only "error" events, not "${event}"`);
  if (typeof listener !== 'function') throw new TypeError('the error listener must be a function');
  return listener as ErrorListener;
}
