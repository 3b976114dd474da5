import type { Knex } from 'knex';
import type { TikTokClient } from '../adplatform/tiktok';
import type { Repositories } from '../db/repositories';
import type { AdStatsSchedules } from '../temporal/ad-stats-schedules';
import type { PipelineWaker } from '../temporal/pipeline-waker';
import type { PipelineSettings } from './group/settings';

/** Where a test may stop delivery to kill the worker at an exact point; production passes none. */
export type DeliveryFaultPoint = 'tiktok-answered' | 'answer-recorded';

export interface ActivityDeps {
  /** For transactions across repositories; every query goes through `repos`. */
  db: Knex;
  repos: Repositories;
  tiktok: TikTokClient;
  /** Wakes the group workflows of workspaces with conversions left unclaimed (the outbox sweeper). */
  pipelines: Pick<PipelineWaker, 'wakeWorkspaces'>;
  /** Only `pause` is used here: a pull that finds the token revoked stops its own schedule. */
  adStatsSchedules: Pick<AdStatsSchedules, 'pause'>;
  pipeline: PipelineSettings;
  /** Test-only: awaited when delivery reaches each point. */
  reached?: (point: DeliveryFaultPoint) => Promise<void>;
}
