import type { Knex } from 'knex';
import type { TikTokClient } from '../adplatform/tiktok';
import type { Mailer } from '../notify/mailer';
import type { WebhookPoster } from '../notify/webhook';
import type { Repositories } from '../db/repositories';
import type { PipelinePartition } from '../db/repositories/conversion-pipelines';
import type { ConversionStatus } from '../db/types';
import type { RetryClass } from '../domain/delivery-retry';
import type { GroupStep } from './group/internal-error';
import type { PipelineSettings } from './group/settings';
import type { EventDaysReport } from './retention';

/** What waking group workflows did (temporal/pipeline-waker.ts wakes them), counted per partition's workflow. */
export interface WakeReport {
  /** Workflows signalled (started when not running). */
  woken: number;
  /** Workflows busy with earlier groups: they claim the new conversions without a signal. */
  busy: number;
  /** Without `partition`: the workspace's partitions could not even be looked up. */
  failed: { workspaceId: string; partition?: number; error: string }[];
}

/*
 * What the activities ask of Temporal's client side, declared here so that activities never import temporal/ (which
 * imports the workflows, which import the activity types): temporal/pipeline-waker.ts and temporal/ad-stats-schedules.ts
 * implement them, the worker passes them in.
 */
export interface WorkspaceWaker {
  /** Retries, a partition retiring: signals every group workflow of these workspaces whether or not it looks idle. */
  wakeWorkspaces(workspaceIds: readonly string[]): Promise<WakeReport>;
  /** The sweeper, a change of the partition count: signals these partitions' workflows whether or not they look idle. */
  wakePartitions(partitions: readonly PipelinePartition[]): Promise<WakeReport>;
}

export interface SchedulePauser {
  /** Pauses the workspace's statistics schedule with a note shown in the Temporal UI; false when it does not exist. */
  pause(workspaceId: string, note: string): Promise<boolean>;
}

/** How a group's delivery step ended. */
export type GroupOutcome =
  /** TikTok answered every request (accepting or refusing events). */
  | 'sent'
  /** TikTok failed transiently: the rest of the group waits for the workspace's backoff. */
  | 'backing_off'
  /** TikTok is not connected, or the connection awaits re-authorization: the group's conversions are skipped. */
  | 'not_connected'
  /** Every conversion had ended before delivery (skipped when prepared, invalid or expired), or was answered already. */
  | 'nothing_to_send'
  /** The worker is stopping: what the group had not sent yet was given back for the next worker to claim. */
  | 'handed_back';

/**
 * What the group steps report to the worker's metrics (worker/metrics.ts records them with prom-client), declared
 * here so that activities never reach for a metrics library's global registry and tests bring their own.
 */
export interface PipelineMetrics {
  /** A conversion's outcome was committed, `lagSeconds` after ingest created it. */
  conversionEnded(conversion: { status: Exclude<ConversionStatus, 'pending'>; reason: string | null; lagSeconds: number }): void;
  /** Conversions left pending for the workspace's backoff because TikTok failed transiently on their request. */
  conversionsRetrying(retryClass: RetryClass, count: number): void;
  /** A group step runs again after it failed (PostgreSQL or Temporal unavailable, or an error isolated next). */
  stepRetried(step: GroupStep): void;
  groupProcessed(outcome: GroupOutcome): void;
}

/** What retention reports to the worker's metrics (worker/metrics.ts), as PipelineMetrics does for the group steps. */
export interface RetentionMetrics {
  /** The partitions of `events` a run created ahead, dropped and kept. */
  eventDaysRetired(report: EventDaysReport): void;
  /** One batch of row retention: rows deleted, or stripped of their personal data. */
  rowsRemoved(table: 'events' | 'conversions', removed: { deleted: number; stripped: number }): void;
  /** A run of the retention workflow reached its end (having done all there was, or stopped at its limit). */
  runSucceeded(at: Date): void;
}

/** The worker's logger (pino), each line naming the worker. */
export interface ActivityLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/** Where a test may stop delivery to kill the worker at an exact point; production passes none. */
export type DeliveryFaultPoint = 'tiktok-answered' | 'answer-recorded';

export interface ActivityDeps {
  /** For transactions across repositories; every query goes through `repos`. */
  db: Knex;
  repos: Repositories;
  tiktok: TikTokClient;
  /** Wakes the group workflows of workspaces with conversions left unclaimed (the outbox sweeper). */
  pipelines: WorkspaceWaker;
  /** Only `pause` is used here: a pull that finds the token revoked stops its own schedule. */
  adStatsSchedules: SchedulePauser;
  pipeline: PipelineSettings;
  metrics: PipelineMetrics;
  retentionMetrics: RetentionMetrics;
  log: ActivityLog;
  /** Where alerts go: mail through SMTP_URL, webhooks over HTTP. */
  notify: { mailer: Mailer; postWebhook: WebhookPoster };
  /**
   * Aborted when the worker is told to stop (worker/shutdown.ts): a group step then claims nothing, and one holding a
   * group gives back what it has not sent (after the TikTok request in flight), so the workflow's task completes and
   * another worker carries on. Absent: never stopping (tests' in-process workers).
   */
  stopping?: AbortSignal;
  /** `PUBLIC_URL`: alerts link to the console's pages under it (domain/console-links.ts). */
  publicUrl: string;
  /** Test-only: awaited when delivery reaches each point. */
  reached?: (point: DeliveryFaultPoint) => Promise<void>;
}
