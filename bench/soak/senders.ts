import { setMaxListeners } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import Signalbox, { type Transport } from '@signalbox/api';
import { SHOP_ORIGIN, type SoakShop } from './shops';
import { retryable, type Answer, type Ledger, type Source } from './ledger';

/** As the tracking script's queue retries (web/src/queue.ts): from 1 s, doubling, up to a minute between tries. */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;
/** A device keeps its queue; the soak gives up on a request after this long, which would show as unacknowledged. */
const GIVE_UP_AFTER_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

export const BROWSER_USER_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

export interface Message {
  messageId: string;
  [field: string]: unknown;
}

interface Answered {
  answer: Answer;
  headers: Record<string, string>;
  text: string;
}

async function post(url: string, headers: Record<string, string>, body: string | Buffer, abandoned: AbortSignal): Promise<Answered> {
  return fetch(url, { method: 'POST', headers, body, signal: AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), abandoned]) }).then(
    async (response) => ({ answer: response.status, headers: Object.fromEntries(response.headers), text: await response.text() }),
    () => ({ answer: 'no answer' as const, headers: {}, text: '' }),
  );
}

/** The same request again, with the tracking script's backoff, until it is answered for good (or `abandoned`). */
async function sendUntilAnswered(ledger: Ledger, source: Source, url: string, headers: Record<string, string>, body: string, messageIds: string[], abandoned: AbortSignal): Promise<void> {
  const deadline = performance.now() + GIVE_UP_AFTER_MS;
  for (let waitMs = FIRST_RETRY_MS; !abandoned.aborted; waitMs = Math.min(waitMs * 2, LAST_RETRY_MS)) {
    const { answer, text } = await post(url, headers, body, abandoned);
    if (abandoned.aborted) return;
    ledger.answered(source, answer, messageIds);
    if (!retryable(answer)) {
      if (typeof answer === 'number' && (answer < 200 || answer >= 300)) ledger.undelivered.push({ source, why: `HTTP ${answer}: ${text.slice(0, 300)}` });
      return;
    }
    if (performance.now() > deadline) return void ledger.undelivered.push({ source, why: `still ${answer} after ${GIVE_UP_AFTER_MS / 60_000} minutes of retries` });
    await sleep(waitMs * (0.5 + Math.random() / 2), undefined, { signal: abandoned }).catch(() => undefined);
  }
}

/** The clients of one shop at one ingest process: its pages' tracking script, its backend's library, its app. */
export interface ShopClients {
  shop: SoakShop;
  /** A batch as the tracking script posts it: text/plain JSON with the browser key inside, from the shop's origin. */
  web(batch: Message[]): Promise<void>;
  /** A batch as Segment's mobile libraries post it: JSON, the app key as Basic auth. */
  app(batch: Message[]): Promise<void>;
  /** The backend's @signalbox/api client; every batch it delivers is written down in the ledger. */
  sdk: Signalbox;
}

export interface Senders {
  clientsOf(shop: SoakShop, ingest: number): ShopClients;
  /** Waits for every request sent so far to be answered for good, and closes the libraries (which flush first). */
  finish(): Promise<void>;
  /** Stops sending at once (the run failed). */
  abandon(): void;
}

/** Clients for every shop at every ingest URL, writing what they send and what is acknowledged into `ledger`. */
export function createSenders(ledger: Ledger, ingestUrls: readonly string[], shops: readonly SoakShop[]): Senders {
  const inFlight = new Set<Promise<void>>();
  const abandoned = new AbortController();
  setMaxListeners(Infinity, abandoned.signal); // one listener per request and pause in flight
  const track = (sending: Promise<void>) => {
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
    return sending;
  };
  const clients = shops.map((shop) =>
    ingestUrls.map((url): ShopClients => ({
      shop,
      web: (batch) =>
        track(
          sendUntilAnswered(
            ledger,
            'web',
            `${url}/v1/batch`,
            { 'content-type': 'text/plain;charset=UTF-8', origin: SHOP_ORIGIN, 'user-agent': BROWSER_USER_AGENT },
            JSON.stringify({ batch, sentAt: new Date().toISOString(), writeKey: shop.keys.browser }),
            batch.map((message) => message.messageId),
            abandoned.signal,
          ),
        ),
      app: (batch) =>
        track(
          sendUntilAnswered(
            ledger,
            'app',
            `${url}/v1/batch`,
            { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${shop.keys.app}:`).toString('base64')}` },
            JSON.stringify({ batch, sentAt: new Date().toISOString() }),
            batch.map((message) => message.messageId),
            abandoned.signal,
          ),
        ),
      sdk: libraryClient(ledger, url, shop.keys.secret, abandoned.signal),
    })),
  );
  return {
    clientsOf: (shop, ingest) => clients[shops.indexOf(shop)]?.[ingest] as ShopClients,
    async finish() {
      while (inFlight.size > 0) await Promise.all(inFlight);
      const libraries = clients.flat().map((client) => client.sdk.close({ timeoutMs: GIVE_UP_AFTER_MS }));
      await Promise.all(libraries.map((closing) => closing.catch(() => undefined)));
    },
    abandon() {
      abandoned.abort();
      for (const client of clients.flat()) void client.sdk.close({ timeoutMs: 1 }).catch(() => undefined);
    },
  };
}

/**
 * @signalbox/api as a backend configures it for a job that must not lose events (more retries than the default, over
 * up to ten minutes), with a transport that notes which messages each 2xx acknowledged.
 */
function libraryClient(ledger: Ledger, host: string, apiKey: string, abandoned: AbortSignal): Signalbox {
  const transport: Transport = {
    async send(request) {
      const { answer, headers, text } = await post(request.url, request.headers, request.body, abandoned);
      const { batch } = JSON.parse(gunzipSync(request.body).toString('utf8')) as { batch: Message[] };
      ledger.answered('sdk', answer, batch.map((message) => message.messageId));
      if (answer === 'no answer') throw new Error('no answer');
      return { status: answer, headers, body: text };
    },
  };
  const client = new Signalbox({ apiKey, host, flushAt: 20, flushInterval: 1_000, retryLimit: 10, retryHorizon: GIVE_UP_AFTER_MS, maxQueueSize: 10_000, transport });
  client.on('error', (error) => ledger.undelivered.push({ source: 'sdk', why: `${error.reason}: ${error.message}`.slice(0, 300) }));
  return client;
}
