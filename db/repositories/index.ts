import type { Knex } from 'knex';
import type { SecretBox } from '../secret-box';
import { createAdReportRepository } from './ad-report';
import { createAdStatsRepository } from './ad-stats';
import { createAlertFigureRepository } from './alert-figures';
import { createAlertIncidentRepository } from './alert-incidents';
import { createAlertSettingsRepository } from './alert-settings';
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
import { createIngestWriteRepository } from './ingest-writes';
import { createMatchKeyCoverageRepository } from './match-key-coverage';
import { createOAuthStateRepository } from './oauth-states';
import { createImportedRowRepository } from './imported-rows';
import { createPastEventRepository } from './past-events';
import { createProfileRepository } from './profiles';
import { createEventDayRepository } from './event-days';
import { createRetentionRepository } from './retention';
import { createTikTokConnectionRepository } from './tiktok-connections';
import { createWorkspaceRepository } from './workspaces';
import { createConsoleSessionRepository } from './console-sessions';
import { createConversionCountRepository } from './conversion-counts';
import { createConversionFigureRepository } from './conversion-figures';
import { createConversionSearchRepository } from './conversion-search';
import { createDeliveredDailyRepository } from './delivered-daily';
import { createDiagnosticsRepository } from './diagnostics';
import { createEventCountRepository } from './event-counts';
import { createEventStreamRepository } from './event-stream';
import { createIngestRefusalRepository } from './ingest-refusals';
import { createInvitationRepository } from './invitations';
import { createPasswordResetRepository } from './password-resets';
import { createPeopleRepository } from './people';
import { createSignInFailureRepository } from './sign-in-failures';
import { createUserRepository } from './users';
import { createShopifyConnectionRepository } from './shopify-connections';
import { createShopifyPrivacyRequestRepository } from './shopify-privacy-requests';
import { createWebhookSourceRepository } from './webhook-sources';

export function createRepositories(db: Knex, secrets: SecretBox) {
  return {
    workspaces: createWorkspaceRepository(db),
    apiKeys: createApiKeyRepository(db),
    events: createEventRepository(db),
    ingestWrites: createIngestWriteRepository(db),
    eventListing: createEventListingRepository(db),
    profiles: createProfileRepository(db),
    conversionRules: createConversionRuleRepository(db),
    tiktokConnections: createTikTokConnectionRepository(db, secrets),
    shopifyConnections: createShopifyConnectionRepository(db, secrets),
    conversions: createConversionRepository(db),
    conversionGroups: createConversionGroupRepository(db),
    conversionHistory: createConversionHistoryRepository(db),
    conversionPipelines: createConversionPipelineRepository(db),
    oauthStates: createOAuthStateRepository(db),
    adStats: createAdStatsRepository(db),
    adReport: createAdReportRepository(db),
    changeLog: createChangeLogRepository(db),
    users: createUserRepository(db),
    consoleSessions: createConsoleSessionRepository(db),
    invitations: createInvitationRepository(db),
    signInFailures: createSignInFailureRepository(db),
    ingestRefusals: createIngestRefusalRepository(db),
    eventCounts: createEventCountRepository(db),
    eventStream: createEventStreamRepository(db),
    conversionCounts: createConversionCountRepository(db),
    conversionFigures: createConversionFigureRepository(db),
    deliveredDaily: createDeliveredDailyRepository(db),
    diagnostics: createDiagnosticsRepository(db),
    conversionSearch: createConversionSearchRepository(db),
    people: createPeopleRepository(db),
    erasures: createErasureRepository(db),
    retention: createRetentionRepository(db),
    eventDays: createEventDayRepository(db),
    matchKeyCoverage: createMatchKeyCoverageRepository(db),
    alertSettings: createAlertSettingsRepository(db, secrets),
    alertIncidents: createAlertIncidentRepository(db),
    alertFigures: createAlertFigureRepository(db),
    passwordResets: createPasswordResetRepository(db),
    webhookSources: createWebhookSourceRepository(db, secrets),
    shopifyPrivacyRequests: createShopifyPrivacyRequestRepository(db),
    pastEvents: createPastEventRepository(db),
    importedRows: createImportedRowRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
