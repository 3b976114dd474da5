import type { Knex } from 'knex';
import type { SecretBox } from '../secret-box';
import { createAdReportRepository } from './ad-report';
import { createAdStatsRepository } from './ad-stats';
import { createApiKeyRepository } from './api-keys';
import { createChangeLogRepository } from './change-log';
import { createConversionGroupRepository } from './conversion-groups';
import { createConversionHistoryRepository } from './conversion-history';
import { createConversionPipelineRepository } from './conversion-pipelines';
import { createConversionRuleRepository } from './conversion-rules';
import { createConversionRepository } from './conversions';
import { createErasureRepository } from './erasures';
import { createEventListingRepository } from './event-listing';
import { createEventRepository } from './events';
import { createMatchKeyCoverageRepository } from './match-key-coverage';
import { createOAuthStateRepository } from './oauth-states';
import { createProfileRepository } from './profiles';
import { createRetentionRepository } from './retention';
import { createTikTokConnectionRepository } from './tiktok-connections';
import { createWorkspaceRepository } from './workspaces';

export function createRepositories(db: Knex, secrets: SecretBox) {
  return {
    workspaces: createWorkspaceRepository(db),
    apiKeys: createApiKeyRepository(db),
    events: createEventRepository(db),
    eventListing: createEventListingRepository(db),
    profiles: createProfileRepository(db),
    conversionRules: createConversionRuleRepository(db),
    tiktokConnections: createTikTokConnectionRepository(db, secrets),
    conversions: createConversionRepository(db),
    conversionGroups: createConversionGroupRepository(db),
    conversionHistory: createConversionHistoryRepository(db),
    conversionPipelines: createConversionPipelineRepository(db),
    oauthStates: createOAuthStateRepository(db),
    adStats: createAdStatsRepository(db),
    adReport: createAdReportRepository(db),
    changeLog: createChangeLogRepository(db),
    erasures: createErasureRepository(db),
    retention: createRetentionRepository(db),
    matchKeyCoverage: createMatchKeyCoverageRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
