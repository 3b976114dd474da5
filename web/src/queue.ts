import type { KeyValueStore } from './store';

/** A Segment-shaped message; `messageId` lets the server store a re-sent message once. */
export interface Message {
  type: string;
  messageId: string;
  [field: string]: unknown;
}

/** `rejected`: the server refused the batch for good (a 4xx), so sending it again cannot help. */
export type SendResult = 'delivered' | 'rejected' | 'retry';

export interface Transport {
  /** Sends while the page lives, so the outcome is known. */
  send(body: string): Promise<SendResult>;
  /** Hands the body to the browser to deliver after the page is gone; false when the browser refused it. */
  beacon(body: string): boolean;
}

export interface QueueOptions {
  /** Where queued messages wait (Web Storage), so that they outlive the page and an offline spell. */
  store: KeyValueStore;
  transport: Transport;
  /** The request body for a batch (the batch envelope with the write key and `sentAt`). */
  envelope(batch: readonly Message[]): string;
  isOnline(): boolean;
  schedule(run: () => void, delayMs: number): void;
  maxItems?: number;
  maxBatchBytes?: number;
  flushDelayMs?: number;
  warn?(text: string): void;
}

export const QUEUE_NAME = 'sbx_queue';
/** The server refuses a message over 32 KiB, and with it the whole batch. */
export const MAX_MESSAGE_BYTES = 32 * 1024;
/** Keepalive requests and beacons may carry 64 KiB in all; leave room for the envelope. */
const MAX_BATCH_BYTES = 60_000;
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;

const bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * Messages wait in storage until the server confirms them: a page that closes mid-request or a browser that is
 * offline loses nothing, and a message sent twice is stored once. One request is in flight at a time; failures are
 * retried with exponential backoff; when the page goes away, what is left leaves with `sendBeacon`.
 */
export function createQueue(options: QueueOptions) {
  const { store, transport, envelope, isOnline, schedule, maxItems = 200, maxBatchBytes = MAX_BATCH_BYTES, flushDelayMs = 50, warn = () => undefined } = options;
  const inFlight = new Set<string>();
  let timerSet = false;
  let failures = 0;

  function load(): Message[] {
    try {
      const items: unknown = JSON.parse(store.get(QUEUE_NAME) ?? '[]');
      return Array.isArray(items) ? (items as Message[]) : [];
    } catch {
      return [];
    }
  }

  function save(items: readonly Message[]): void {
    if (items.length === 0) store.remove(QUEUE_NAME);
    else store.set(QUEUE_NAME, JSON.stringify(items), 30);
  }

  function forget(sent: readonly Message[]): void {
    const ids = new Set(sent.map((message) => message.messageId));
    save(load().filter((message) => !ids.has(message.messageId)));
  }

  /** The oldest messages that fit in one request. */
  function nextBatch(items: readonly Message[]): Message[] {
    const batch: Message[] = [];
    let size = 0;
    for (const message of items) {
      size += bytes(JSON.stringify(message)) + 1;
      if (batch.length > 0 && size > maxBatchBytes) break;
      batch.push(message);
    }
    return batch;
  }

  function later(delayMs: number): void {
    if (timerSet) return;
    timerSet = true;
    schedule(() => {
      timerSet = false;
      void flush();
    }, delayMs);
  }

  async function flush(): Promise<void> {
    if (inFlight.size > 0 || !isOnline()) return;
    const batch = nextBatch(load());
    if (batch.length === 0) return;
    batch.forEach((message) => inFlight.add(message.messageId));
    let result: SendResult;
    try {
      result = await transport.send(envelope(batch));
    } catch {
      result = 'retry';
    }
    inFlight.clear();
    if (result === 'retry') {
      failures += 1;
      later(Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LAST_RETRY_MS));
      return;
    }
    failures = 0;
    if (result === 'rejected') warn(`the server refused ${batch.length} event(s); they are dropped`);
    forget(batch);
    if (load().length > 0) later(0);
  }

  return {
    push(message: Message): void {
      const size = bytes(JSON.stringify(message));
      if (size > MAX_MESSAGE_BYTES) {
        warn(`${message.type} dropped: ${size} bytes of JSON, over the limit of ${MAX_MESSAGE_BYTES}`);
        return;
      }
      const items = [...load(), message];
      save(items.slice(Math.max(0, items.length - maxItems)));
      later(flushDelayMs);
    },

    flush,

    /** Consent revoked: nothing waiting is sent any more. */
    clear(): void {
      store.remove(QUEUE_NAME);
    },

    /**
     * Page hidden or closing: beacons out everything not already in flight (a keepalive request finishes on its own).
     * What the browser refuses stays queued for the next page.
     */
    flushOnExit(): void {
      let waiting = load().filter((message) => !inFlight.has(message.messageId));
      const handedOver: Message[] = [];
      while (waiting.length > 0 && isOnline()) {
        const batch = nextBatch(waiting);
        if (!transport.beacon(envelope(batch))) break;
        handedOver.push(...batch);
        waiting = waiting.slice(batch.length);
      }
      if (handedOver.length > 0) forget(handedOver);
    },
  };
}

export type Queue = ReturnType<typeof createQueue>;
