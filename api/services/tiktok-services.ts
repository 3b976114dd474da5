import type { Knex } from 'knex';
import { createAdReportService, type AdReportService } from './ad-report-service';
import type { TikTokClient } from '../../adplatform/tiktok';
import {
  createOAuthStateSigner,
  createTestConversionSender,
  createTikTokConnectionService,
  type SendTestConversion,
  type TikTokConnectionService,
  type TikTokOAuthApp,
} from './tiktok-connection';
import type { Repositories } from '../../db/repositories';
import type { AdStatsSchedules } from '../../temporal/ad-stats-schedules';
import type { ConversionRetryService } from './conversion-retry';

/** What the TikTok routes of the settings API (and the public OAuth callback) call. */
export interface TikTokServices {
  connections: TikTokConnectionService;
  reports: AdReportService;
  sendTestConversion: SendTestConversion;
}

export interface TikTokServicesDeps {
  db: Knex;
  repos: Repositories;
  tiktok: TikTokClient;
  oauth: TikTokOAuthApp;
  /** SECRET_KEY (64 hex characters): the OAuth `state` is signed under a key derived from it. */
  secretKey: string;
  /** SECRET_KEY_PREVIOUS during a rotation: a `state` signed under it is still accepted. */
  previousSecretKey?: string;
  schedules: AdStatsSchedules;
  /** Reconnecting sends again the conversions that failed because TikTok refused the token. */
  conversionRetry: Pick<ConversionRetryService, 'retryRefusedToken'>;
}

/** Wires the TikTok connection, report and test-conversion services for `server.ts` and the test app. */
export function createTikTokServices(deps: TikTokServicesDeps): TikTokServices {
  return {
    connections: createTikTokConnectionService({
      repos: deps.repos,
      tiktok: deps.tiktok,
      oauth: deps.oauth,
      states: createOAuthStateSigner(deps.secretKey, { previousKeyHex: deps.previousSecretKey }),
      schedules: deps.schedules,
      transaction: (work) => deps.db.transaction(work),
      onTokenStored: (workspaceId) => deps.conversionRetry.retryRefusedToken(workspaceId),
    }),
    reports: createAdReportService({ repos: deps.repos }),
    sendTestConversion: createTestConversionSender({ repos: deps.repos, tiktok: deps.tiktok }),
  };
}
