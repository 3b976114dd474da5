import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { runJourney, thinkTime } from './journeys';
import type { Ledger } from './ledger';
import type { Senders } from './senders';
import type { SoakShop } from './shops';

export interface LoadResult {
  journeys: number;
  /** Journeys that threw: a call the client library refused, or a bug of the soak. None should. */
  errors: string[];
}

export interface Load {
  /** Starts no more journeys; resolves once every started journey has made all its calls. */
  stop(): Promise<LoadResult>;
  abandon(): void;
}

/**
 * Starts `perSecond` journeys a second, each for one shop (the first gets two in three) at one ingest process, both
 * drawn at random, until stopped.
 */
export function startLoad(senders: Senders, ledger: Ledger, shops: readonly SoakShop[], ingests: number, perSecond: number): Load {
  const runId = randomBytes(4).toString('hex');
  const abandoned = new AbortController();
  setMaxListeners(Infinity, abandoned.signal); // one listener per journey's pause
  const running = new Set<Promise<void>>();
  const errors: string[] = [];
  let started = 0;
  const timer = setInterval(() => {
    const n = started++;
    const shop = shops[Math.random() < 2 / 3 ? 0 : shops.length - 1] as SoakShop;
    const ingest = Math.floor(Math.random() * ingests);
    const context = { id: `soak-${runId}-${n}`, clients: senders.clientsOf(shop, ingest), ledger, pause: () => thinkTime(abandoned.signal) };
    const journey = runJourney(context, n).catch((error: unknown) => void errors.push(`journey ${n}: ${String(error)}`));
    running.add(journey);
    void journey.finally(() => running.delete(journey));
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      while (running.size > 0) await Promise.all(running);
      return { journeys: started, errors };
    },
    abandon() {
      clearInterval(timer);
      abandoned.abort();
    },
  };
}
