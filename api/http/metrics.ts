import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MAX_EVENTS_PER_BATCH } from './limits';

export interface DatabaseFigures {
  /** Conversions now `failed` with `internal_error`, read from PostgreSQL at each scrape (the worker sets them aside). */
  internalErrors(): Promise<number>;
}

/** A registry per app (not prom-client's global one), so several apps in one process never clash. */
export function createIngestMetrics(figures?: DatabaseFigures) {
  const registry = new Registry();
  const registers = [registry];
  if (figures !== undefined) {
    new Gauge({
      name: 'signalbox_conversions_internal_error',
      help: 'Conversions failed with reason internal_error: a group step kept failing on each of them alone, so it was set aside (send them again once fixed)',
      registers,
      async collect() {
        // Without the database the last count stands: a scrape that fails would hide the request figures of an outage.
        const count = await figures.internalErrors().catch(() => undefined);
        if (count !== undefined) this.set(count);
      },
    });
  }
  return {
    registry,
    requests: new Counter({
      name: 'signalbox_http_requests_total',
      help: 'HTTP requests by route and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    eventsStored: new Counter({ name: 'signalbox_events_stored_total', help: 'Events stored (new messageIds)', registers }),
    duplicates: new Counter({ name: 'signalbox_events_duplicate_total', help: 'Messages skipped because their messageId was already stored', registers }),
    conversionsCreated: new Counter({ name: 'signalbox_conversions_created_total', help: 'Pending conversions created by ingest', registers }),
    batchSize: new Histogram({
      name: 'signalbox_batch_messages',
      help: 'Messages per accepted ingest request',
      buckets: [1, 5, 20, 100, 500, 1_000, 5_000, MAX_EVENTS_PER_BATCH],
      registers,
    }),
  };
}

export type IngestMetrics = ReturnType<typeof createIngestMetrics>;
