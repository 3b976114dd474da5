import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import { createAdminTokenCheck } from '../../auth/admin-token';
import type { CredentialCache } from '../../auth/credential-cache';
import type { ConversionRetryService } from '../../conversion-retry';
import type { ErasureService } from '../../erasure';
import type { TikTokServices } from '../../tiktok-services';
import { apiKeyRoutes } from './api-keys';
import { conversionRoutes } from './conversions';
import type { WorkflowLink } from './conversion-view';
import { conversionRuleRoutes } from './conversion-rules';
import { erasureRoutes } from './erasures';
import { eventRoutes } from './events';
import { matchKeyRoutes } from './match-keys';
import { workspaceSettingsRoutes } from './settings';
import { tiktokRoutes } from './tiktok';
import { tiktokAdUrlRoutes } from './tiktok-ad-url';
import { tiktokOAuthRoutes } from './tiktok-oauth';
import { tiktokSelectionRoutes } from './tiktok-selection';
import { tiktokStatisticsRoutes } from './tiktok-statistics';
import { tiktokTestConversionRoutes } from './tiktok-test-conversion';
import { loadWorkspaceFromPath } from './workspace-scope';
import { workspaceCollectionRoutes } from './workspaces';

export interface AdminRoutesOptions {
  /** For settings writes that commit together with their change-log entry. */
  db: Knex;
  repos: Repositories;
  adminToken: string;
  /** Ingest caches API keys and workspaces; every change made here clears that cache. */
  credentials: CredentialCache;
  tiktok: TikTokServices;
  conversionRetry: ConversionRetryService;
  erasures: ErasureService;
  workflowLink?: WorkflowLink;
}

/** The settings API under `/admin`, guarded by `Authorization: Bearer <ADMIN_TOKEN>`. */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, { db, repos, adminToken, credentials, tiktok, conversionRetry, erasures, workflowLink }) => {
  const requireAdminToken = createAdminTokenCheck(adminToken);
  app.addHook('onRequest', async (request) => requireAdminToken(request.headers.authorization));
  const invalidateCredentials = () => credentials.clear();

  await app.register(workspaceCollectionRoutes, { prefix: '/workspaces', workspaces: repos.workspaces });
  await app.register(
    async (workspace) => {
      loadWorkspaceFromPath(workspace, repos.workspaces);
      await workspace.register(workspaceSettingsRoutes, { workspaces: repos.workspaces, onChange: invalidateCredentials });
      await workspace.register(apiKeyRoutes, { prefix: '/api-keys', apiKeys: repos.apiKeys, onRevoke: invalidateCredentials });
      await workspace.register(conversionRuleRoutes, {
        prefix: '/conversion-rules',
        db,
        conversionRules: repos.conversionRules,
        changeLog: repos.changeLog,
        eventListing: repos.eventListing,
      });
      await workspace.register(tiktokRoutes, { prefix: '/tiktok', connections: tiktok.connections, tiktokConnections: repos.tiktokConnections });
      await workspace.register(tiktokOAuthRoutes, { prefix: '/tiktok/oauth', connections: tiktok.connections });
      await workspace.register(tiktokSelectionRoutes, { prefix: '/tiktok', connections: tiktok.connections, tiktokConnections: repos.tiktokConnections });
      await workspace.register(tiktokStatisticsRoutes, { prefix: '/tiktok', connections: tiktok.connections, reports: tiktok.reports });
      await workspace.register(tiktokTestConversionRoutes, { prefix: '/tiktok', sendTestConversion: tiktok.sendTestConversion });
      await workspace.register(tiktokAdUrlRoutes, { prefix: '/tiktok' });
      await workspace.register(conversionRoutes, { prefix: '/conversions', repos, conversionRetry, workflowLink });
      await workspace.register(eventRoutes, { prefix: '/events', eventListing: repos.eventListing });
      await workspace.register(matchKeyRoutes, { prefix: '/match-keys', coverage: repos.matchKeyCoverage });
      await workspace.register(erasureRoutes, { prefix: '/erasures', erasures, log: repos.erasures });
    },
    { prefix: '/workspaces/:workspaceId' },
  );
};
