import { Counter, Histogram, Registry } from 'prom-client';
import { MAX_EVENTS_PER_BATCH } from './limits';

/** A registry per app (not prom-client's global one), so several apps in one process never clash. */
export function createIngestMetrics() {
  const registry = new Registry();
  const registers = [registry];
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
