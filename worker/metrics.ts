import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PipelineMetrics, RetentionMetrics } from '../activities/deps';
import type { TikTokCallRecord } from '../adplatform/tiktok';
import { registerBacklogGauges, type ReadBacklog } from './backlog-metrics';

/** From a second to TikTok's whole retry horizon (28 days): conversions wait out outages and backoffs. */
const LAG_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3_600, 21_600, 86_400, 604_800, 2_419_200];
/** Up to the client's 10 s timeout. */
const TIKTOK_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** TikTok's envelope code, else the HTTP status of an answer without one, else `none` (timeout, network error). */
function responseCode({ code, httpStatus }: TikTokCallRecord['result']): string {
  if (code !== undefined) return String(code);
  return httpStatus === undefined ? 'none' : `http_${httpStatus}`;
}

/**
 * The worker's Prometheus metrics, on a registry of its own (not prom-client's global one, so that tests create as
 * many as they like), with Node's process metrics. `pipeline` goes to the activities, `tiktokCall` to the TikTok client.
 * With `readBacklog`, the backlog's gauges too (worker/backlog-metrics.ts).
 */
export function createWorkerMetrics(readBacklog?: ReadBacklog) {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  if (readBacklog !== undefined) registerBacklogGauges(registry, readBacklog);

  const groups = new Counter({
    name: 'signalbox_groups_processed_total',
    help: "Conversion groups whose delivery step completed, by outcome: sent, backing_off, not_connected, nothing_to_send",
    labelNames: ['outcome'] as const,
    registers,
  });
  const conversions = new Counter({
    name: 'signalbox_conversion_outcomes_total',
    help: 'Conversions that reached their outcome in this worker, by status (delivered, skipped, failed) and reason (none when there is none)',
    labelNames: ['status', 'reason'] as const,
    registers,
  });
  const lag = new Histogram({
    name: 'signalbox_conversion_pipeline_lag_seconds',
    help: 'From a conversion created by ingest to its outcome recorded, by status',
    labelNames: ['status'] as const,
    buckets: LAG_BUCKETS,
    registers,
  });
  const conversionRetries = new Counter({
    name: 'signalbox_conversion_retries_total',
    help: "Conversions left pending for the workspace's backoff because TikTok failed transiently on their request, by retry class (throttled, transient)",
    labelNames: ['retry_class'] as const,
    registers,
  });
  const stepRetries = new Counter({
    name: 'signalbox_group_step_retries_total',
    help: 'Group steps run again after they failed (PostgreSQL or Temporal unavailable, or an error being isolated), by step (prepare, deliver)',
    labelNames: ['step'] as const,
    registers,
  });
  const tiktokDuration = new Histogram({
    name: 'signalbox_tiktok_request_duration_seconds',
    help: "TikTok API calls from sending to the answer read (or the timeout), by endpoint path",
    labelNames: ['endpoint'] as const,
    buckets: TIKTOK_DURATION_BUCKETS,
    registers,
  });
  const tiktokResponses = new Counter({
    name: 'signalbox_tiktok_responses_total',
    help: "TikTok API answers by endpoint path, TikTok's code (http_<status> without an envelope, none without an answer) and outcome (success, retryable, permanent)",
    labelNames: ['endpoint', 'code', 'outcome'] as const,
    registers,
  });

  const retention = createRetentionMetrics(registers);

  const pipeline: PipelineMetrics = {
    conversionEnded({ status, reason, lagSeconds }) {
      conversions.inc({ status, reason: reason ?? 'none' });
      lag.observe({ status }, Math.max(0, lagSeconds));
    },
    conversionsRetrying(retryClass, count) {
      conversionRetries.inc({ retry_class: retryClass }, count);
    },
    stepRetried(step) {
      stepRetries.inc({ step });
    },
    groupProcessed(outcome) {
      groups.inc({ outcome });
    },
  };

  return {
    registry,
    pipeline,
    retention,
    tiktokCall({ path, seconds, result }: TikTokCallRecord) {
      tiktokDuration.observe({ endpoint: path }, seconds);
      tiktokResponses.inc({ endpoint: path, code: responseCode(result), outcome: result.outcome });
    },
  };
}

/** What the retention workflow did, counted by the worker whose activity did it (OPERATIONS.md, Metrics and alerts). */
function createRetentionMetrics(registers: Registry[]): RetentionMetrics {
  const daysDropped = new Counter({
    name: 'signalbox_retention_days_dropped_total',
    help: "Days of events dropped whole (their partition), past every workspace's retention period",
    registers,
  });
  const daysKept = new Counter({
    name: 'signalbox_retention_days_kept_total',
    help: "Days past every workspace's retention period kept for a later run, by reason: lock_timeout (ingest held events past the lock timeout), pending_conversion",
    labelNames: ['reason'] as const,
    registers,
  });
  const partitionsCreated = new Counter({
    name: 'signalbox_event_partitions_created_total',
    help: 'Partitions of events created ahead by retention (today and the coming week)',
    registers,
  });
  const rowsRemoved = new Counter({
    name: 'signalbox_retention_rows_removed_total',
    help: 'Rows removed by row retention, by table (events, conversions) and removal (deleted, stripped: an event a conversion refers to loses its personal data)',
    labelNames: ['table', 'removal'] as const,
    registers,
  });
  const lastSuccess = new Gauge({
    name: 'signalbox_retention_last_success_timestamp_seconds',
    help: 'When a retention run last reached its end on this worker (Unix time; 0 until one has since the worker started)',
    registers,
  });
  return {
    eventDaysRetired(report) {
      daysDropped.inc(report.daysDropped.length);
      for (const { reason } of report.daysKept) daysKept.inc({ reason });
      partitionsCreated.inc(report.partitionsCreated.length);
    },
    rowsRemoved(table, removed) {
      rowsRemoved.inc({ table, removal: 'deleted' }, removed.deleted);
      if (table === 'events') rowsRemoved.inc({ table, removal: 'stripped' }, removed.stripped);
    },
    runSucceeded(at) {
      lastSuccess.set(at.getTime() / 1000);
    },
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
