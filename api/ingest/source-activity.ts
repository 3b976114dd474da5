import type { FastifyBaseLogger } from 'fastify';
import type { WebhookSourceRepository } from '../../db/repositories/webhook-sources';
import type { CartState } from '../../domain/shopify/cart';
import { createBackgroundWrites } from './background-writes';

/** One write per source and process at most this often, for each of deliveries and refusals: Sources shows minutes, not requests. */
const RECORD_EVERY_MS = 60_000;
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

  function due(key: string): boolean {
    const at = now();
    const last = lastWritten.get(key);
    if (last !== undefined && at - last < RECORD_EVERY_MS) return false;
    if (lastWritten.size > 10_000) lastWritten.clear();
    lastWritten.set(key, at);
    return true;
  }

  function write(what: string, work: () => Promise<unknown>, onFailure: () => void = () => undefined): void {
    writes.track(
      work().then(
        () => undefined,
        (failure: unknown) => {
          onFailure();
          deps.log.warn({ err: failure }, `could not record ${what}`);
        },
      ),
    );
  }

  return {
    delivered(sourceId: string): void {
      if (!due(`delivery:${sourceId}`)) return;
      write("a webhook source's delivery", () => deps.sources.recordDelivery(sourceId, new Date(now())), () => lastWritten.delete(`delivery:${sourceId}`));
    },

    refused(sourceId: string, status: number, message: string): void {
      if (!due(`refusal:${sourceId}`)) return;
      write("a webhook source's refusal", () => deps.sources.recordRefusal(sourceId, { at: new Date(now()), status, message }), () => lastWritten.delete(`refusal:${sourceId}`));
    },

    /** Awaited by the delivery, after its commit and before its answer, so that the cart's next delivery finds it; never rejects. */
    async cartSeen(sourceId: string, cartToken: string, state: CartState): Promise<void> {
      await deps.sources.rememberCart(sourceId, cartToken, state).catch((failure: unknown) => deps.log.warn({ err: failure }, "could not record a Shopify cart's state"));
      if (now() - lastPrune > PRUNE_CARTS_EVERY_MS) {
        lastPrune = now();
        write('the pruning of old Shopify carts', () => deps.sources.pruneCarts(new Date(now() - CARTS_KEPT_MS)));
      }
    },

    /** Waits for the writes under way, so that closing the app does not close the database under them. */
    drain: writes.drain,
  };
}

export type SourceActivity = ReturnType<typeof createSourceActivity>;
