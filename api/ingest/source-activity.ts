import type { FastifyBaseLogger } from 'fastify';
import type { WebhookSourceRepository } from '../../db/repositories/webhook-sources';
import type { CartState } from '../../domain/shopify/cart';
import { createBackgroundWrites } from './background-writes';

/** One write of a source's last delivery per process at most this often: Sources shows its minute, not each request. */
const RECORD_EVERY_MS = 60_000;
/**
 * One write of a source's last refusal per process at most this often: the first at once, the newest of the others
 * when the second ends. Every refusal is a row of the refusal log already (the event debugger's); this copy on the
 * source must show the last one, which a minute's throttle did not, while a flood of forged deliveries still costs one
 * small update a second, not one per request.
 */
const REFUSAL_EVERY_MS = 1_000;
const CARTS_KEPT_MS = 30 * 86_400_000;
const PRUNE_CARTS_EVERY_MS = 60 * 60_000;

/**
 * What a webhook source's deliveries leave besides their events: the source's last accepted delivery and last refusal
 * (listed on Sources), written after the answer, and a Shopify cart's state for its next carts/update. A failure is
 * logged and never changes the answer (a lost cart state only means the next update is compared with an older one).
 */
export function createSourceActivity(deps: { sources: Pick<WebhookSourceRepository, 'recordDelivery' | 'recordRefusal' | 'rememberCart' | 'pruneCarts'>; log: FastifyBaseLogger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const writes = createBackgroundWrites();
  const lastWritten = new Map<string, number>();
  let lastPrune = now();

  /** Refusals waiting for the end of their source's second, the newest of each. */
  const waitingRefusals = new Map<string, { at: Date; status: number; message: string }>();

  function due(key: string, everyMs: number): boolean {
    const at = now();
    const last = lastWritten.get(key);
    if (last !== undefined && at - last < everyMs) return false;
    if (lastWritten.size > 10_000) lastWritten.clear();
    lastWritten.set(key, at);
    return true;
  }

  function write(what: string, work: () => Promise<unknown>, onFailure: () => void = () => undefined): Promise<void> {
    return track(
      work().then(
        () => undefined,
        (failure: unknown) => {
          onFailure();
          deps.log.warn({ err: failure }, `could not record ${what}`);
        },
      ),
    );
  }

  function track(work: Promise<void>): Promise<void> {
    writes.track(work);
    return work;
  }

  function writeRefusal(sourceId: string, refusal: { at: Date; status: number; message: string }): Promise<void> {
    return write("a webhook source's refusal", () => deps.sources.recordRefusal(sourceId, refusal), () => lastWritten.delete(`refusal:${sourceId}`));
  }

  /** Writes the newest refusal that waited for the end of its source's second. */
  function writeWaitingRefusal(sourceId: string): Promise<void> {
    const newest = waitingRefusals.get(sourceId);
    waitingRefusals.delete(sourceId);
    if (newest === undefined) return Promise.resolve();
    lastWritten.set(`refusal:${sourceId}`, now());
    return writeRefusal(sourceId, newest);
  }

  return {
    delivered(sourceId: string): void {
      if (!due(`delivery:${sourceId}`, RECORD_EVERY_MS)) return;
      void write("a webhook source's delivery", () => deps.sources.recordDelivery(sourceId, new Date(now())), () => lastWritten.delete(`delivery:${sourceId}`));
    },

    refused(sourceId: string, status: number, message: string): void {
      const refusal = { at: new Date(now()), status, message };
      if (waitingRefusals.has(sourceId)) {
        waitingRefusals.set(sourceId, refusal);
        return;
      }
      const lastAt = lastWritten.get(`refusal:${sourceId}`);
      if (due(`refusal:${sourceId}`, REFUSAL_EVERY_MS)) {
        void writeRefusal(sourceId, refusal);
        return;
      }
      waitingRefusals.set(sourceId, refusal);
      const wait = Math.max(0, (lastAt ?? now()) + REFUSAL_EVERY_MS - now());
      void track(new Promise<void>((resolve) => setTimeout(resolve, wait)).then(() => writeWaitingRefusal(sourceId)));
    },

    /** Awaited by the delivery, after its commit and before its answer, so that the cart's next delivery finds it; never rejects. */
    async cartSeen(sourceId: string, cartToken: string, state: CartState): Promise<void> {
      await deps.sources.rememberCart(sourceId, cartToken, state).catch((failure: unknown) => deps.log.warn({ err: failure }, "could not record a Shopify cart's state"));
      if (now() - lastPrune > PRUNE_CARTS_EVERY_MS) {
        lastPrune = now();
        void write('the pruning of old Shopify carts', () => deps.sources.pruneCarts(new Date(now() - CARTS_KEPT_MS)));
      }
    },

    /** Waits for the writes under way, so that closing the app does not close the database under them. */
    drain: writes.drain,
  };
}

export type SourceActivity = ReturnType<typeof createSourceActivity>;
