import { resolveConfig, type ResolvedConfig, type SignalboxConfig } from './config';
import { deliverBatch } from './delivery';
import { Dispatcher } from './dispatcher';
import { createHttpTransport } from './http-transport';
import { generateUuid } from './ids';
import { LIBRARY_NAME, LIBRARY_VERSION } from './library';
import { MAX_CONCURRENT_REQUESTS } from './limits';
import {
  buildGroup,
  buildIdentify,
  buildPage,
  buildTrack,
  serializeMessage,
  type MessageOptions,
  type PageOptions,
  type Properties,
  type TrackOptions,
  type Traits,
  type WireMessage,
} from './messages';
import { Reporter, type ClientStats, type ErrorListener } from './reporter';
import { RetryWaits } from './retry-waits';
import type { Transport } from './transport';

const QUEUED: Promise<void> = Promise.resolve();

/**
 * The Signalbox client. Calls queue events and resolve at once; batches go out in the background, and their
 * failures reach `on('error')` listeners, never the process as unhandled rejections.
 */
export default class Signalbox {
  private readonly config: ResolvedConfig;
  private readonly reporter: Reporter;
  private readonly dispatcher: Dispatcher;
  private readonly transport: Transport;
  private readonly anonymousId = generateUuid();
  private closing: Promise<void> | undefined;
  // Flushes what is queued when the event loop empties; the flush's sockets then keep the process alive until it
  // is done. Failures were already reported to listeners, so nothing is left to handle here.
  private readonly flushBeforeExit = (): void => {
    this.dispatcher.flush().catch(() => undefined);
  };

  constructor(config: string | SignalboxConfig) {
    this.config = resolveConfig(config);
    this.reporter = new Reporter(this.config.debug, this.config.logger);
    this.transport = this.config.transport ?? createHttpTransport(MAX_CONCURRENT_REQUESTS);
    const retryWaits = new RetryWaits();
    const delivery = {
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
      wait: (ms: number) => retryWaits.wait(ms),
      onRetry: (line: string) => this.reporter.debug(line),
    };
    this.dispatcher = new Dispatcher({
      flushAt: this.config.flushAt,
      flushInterval: this.config.flushInterval,
      maxQueueSize: this.config.maxQueueSize,
      deliver: (batch) => deliverBatch(batch, delivery),
      reporter: this.reporter,
      retryWaits,
    });
    process.on('beforeExit', this.flushBeforeExit);
  }

  /** Queues an event. Needs `event` and at least one of `userId` and `anonymousId`; both link the two. */
  track(options: TrackOptions): Promise<void> {
    return this.enqueue('track()', () => buildTrack(options));
  }

  /** Attaches traits to a user. `options.anonymousId` links an anonymous visitor to this user. */
  identify(userId: string, traits?: Traits, options?: MessageOptions): Promise<void> {
    return this.enqueue('identify()', () => buildIdentify(userId, traits, options));
  }

  /** Associates a user with a group (account, organization). */
  group(userId: string, groupId: string, traits?: Traits, options?: MessageOptions): Promise<void> {
    return this.enqueue('group()', () => buildGroup(userId, groupId, traits, options));
  }

  /** Records a server-rendered page view, by a known user or (object form) an anonymous visitor. */
  page(userId: string, name?: string, properties?: Properties, options?: MessageOptions): Promise<void>;
  page(options: PageOptions): Promise<void>;
  page(userIdOrOptions: string | PageOptions, name?: string, properties?: Properties, options?: MessageOptions): Promise<void> {
    return this.enqueue('page()', () => buildPage(userIdOrOptions, name, properties, options));
  }

  /**
   * Sends everything queued now. Resolves when all of it, and every batch already in flight, is delivered;
   * rejects with a FlushError saying how many events failed and why.
   */
  flush(): Promise<void> {
    return this.dispatcher.flush();
  }

  /** Flushes, stops timers and releases sockets; later calls reject. Idempotent: returns the same promise. */
  close(): Promise<void> {
    if (!this.closing) {
      process.removeListener('beforeExit', this.flushBeforeExit);
      this.dispatcher.stop();
      const release = (): void => this.transport.close?.();
      this.closing = this.dispatcher.flush().then(release, (error: unknown) => {
        release();
        throw error;
      });
    }
    return this.closing;
  }

  /** This client's anonymous ID (a UUID), to pass as `anonymousId` when no web-script ID is at hand. */
  getAnonymousId(): string {
    return this.anonymousId;
  }

  /** Reports batches that failed for good and events dropped from a full queue. */
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
      queued: this.dispatcher.queuedCount,
      inFlight: this.dispatcher.inFlightCount,
      delivered: this.reporter.delivered,
      failed: this.reporter.failed,
      dropped: this.reporter.dropped,
    };
  }

  private enqueue(call: string, build: () => WireMessage): Promise<void> {
    try {
      if (this.closing) throw new Error(`${call}: the client is closed; create a new Signalbox client to send more events`);
      const message = build();
      const serialized = serializeMessage(call, message);
      if (this.reporter.debugging) this.reporter.debug(`Event queued: ${message.event ?? message.type}`);
      this.dispatcher.enqueue(serialized);
      return QUEUED;
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function requireErrorEvent(event: string, listener: unknown): ErrorListener {
  if (event !== 'error') throw new TypeError(`Signalbox emits only "error" events, not "${event}"`);
  if (typeof listener !== 'function') throw new TypeError('the error listener must be a function');
  return listener as ErrorListener;
}
