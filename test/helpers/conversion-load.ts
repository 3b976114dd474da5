import { setTimeout as sleep } from 'node:timers/promises';
import { daysAgo, landing, track, ttclid } from './messages';

/** One purchase after a TikTok click, posted as one batch; `body` never changes, so a retry carries the same messageIds. */
export interface Order {
  orderId: string;
  messageIds: string[];
  body: string;
  /** Requests sent until one was acknowledged (or refused for good). */
  attempts: number;
  /** The status of the last answer; 'no answer' for a network error or a request still hanging after 10 s. */
  answer?: number | 'no answer';
}

export function order(orderId: string): Order {
  const visitor = `visitor-${orderId}`;
  const batch = [landing(visitor, ttclid(), daysAgo(1)), track('purchase', { anonymousId: visitor }, { order_id: orderId, total: 25, currency: 'USD' })];
  return { orderId, messageIds: batch.map((message) => message.messageId), body: JSON.stringify({ batch }), attempts: 0 };
}

const RETRYABLE = new Set([429, 500, 502, 503, 504, 'no answer']);

/**
 * As a client library does: the same request again, after a short pause, until it is acknowledged (2xx) or refused,
 * or until `abandoned` aborts.
 */
export async function sendUntilAnswered(url: string, key: string, sent: Order, giveUpAfterMs = 120_000, abandoned?: AbortSignal): Promise<void> {
  for (const deadline = Date.now() + giveUpAfterMs; Date.now() < deadline && !abandoned?.aborted; await sleep(250 + Math.random() * 250)) {
    sent.attempts += 1;
    const timeout = AbortSignal.timeout(10_000);
    sent.answer = await fetch(`${url}/v1/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: sent.body,
      signal: abandoned === undefined ? timeout : AbortSignal.any([timeout, abandoned]),
    }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 'no answer' as const,
    );
    if (!RETRYABLE.has(sent.answer)) return;
  }
}

export interface Load {
  /** Stops making orders and resolves, with every order made, once each has been answered for good. */
  stop(): Promise<Order[]>;
  /** Stops making orders and sending them at once (the test failed). */
  abandon(): void;
}

/** Posts a new order `perSecond` times a second, to the ingest API at `url`. */
export function startLoad(url: string, key: string, prefix: string, perSecond: number): Load {
  const orders: Order[] = [];
  const sends: Promise<void>[] = [];
  const abandoned = new AbortController();
  const timer = setInterval(() => {
    const next = order(`${prefix}-${orders.length}`);
    orders.push(next);
    sends.push(sendUntilAnswered(url, key, next, undefined, abandoned.signal));
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(sends);
      return orders;
    },
    abandon() {
      clearInterval(timer);
      abandoned.abort();
    },
  };
}
