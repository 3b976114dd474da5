import type { TikTokClient } from '../adplatform/tiktok';
import type { Repositories } from '../db/repositories';
import type { AdStatsSchedules } from '../temporal/ad-stats-schedules';
import type { ConversionStarter } from '../temporal/conversion-starter';

export interface ActivityDeps {
  repos: Repositories;
  tiktok: TikTokClient;
  startConversions: ConversionStarter;
  /** Only `pause` is used here: a pull that finds the token revoked stops its own schedule. */
  adStatsSchedules: Pick<AdStatsSchedules, 'pause'>;
}
