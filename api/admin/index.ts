import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../db/repositories';
import { createAdminTokenCheck } from './admin-token';
import type { MemberService } from '../services/accounts/members';
import type { PublicLinks } from '../http/public-links';
import type { SettingsServices } from '../services/settings';
import type { ConversionRetryService } from '../services/conversion-retry';
import type { ErasureService } from '../services/erasure';
import type { ShopifyConnectionService } from '../services/shopify-connection';
import type { TikTokServices } from '../services/tiktok-services';
import type { TestAlertService } from '../services/alerts/test-alert';
import type { PastEventService } from '../services/past-events';
import type { ImportService } from '../services/imports';
import { alertRoutes } from './alerts';
import { apiKeyRoutes } from './api-keys';
import { adminMemberRoutes } from './members';
import { conversionRoutes } from './conversions';
import type { WorkflowLink } from '../http/conversion-view';
import { conversionRuleRoutes } from './conversion-rules';
import { diagnosticsRoutes } from './diagnostics';
import { erasureRoutes } from './erasures';
import { eventRoutes } from './events';
import { importRoutes } from './imports';
import { matchKeyRoutes } from './match-keys';
import { workspaceSettingsRoutes } from './settings';
import { shopifyRoutes } from './shopify';
import { tiktokRoutes } from './tiktok';
import { tiktokAdUrlRoutes } from './tiktok-ad-url';
import { tiktokOAuthRoutes } from './tiktok-oauth';
import { tiktokSelectionRoutes } from './tiktok-selection';
import { tiktokStatisticsRoutes } from './tiktok-statistics';
import { tiktokTestConversionRoutes } from './tiktok-test-conversion';
import { webhookSourceRoutes } from './webhook-sources';
import { loadWorkspaceFromPath } from './workspace-scope';
import { workspaceCollectionRoutes } from './workspaces';

export interface AdminRoutesOptions {
  repos: Repositories;
  adminToken: string;
  tiktok: TikTokServices;
  shopify: ShopifyConnectionService;
  settings: SettingsServices;
  members: MemberService;
  links: PublicLinks;
  conversionRetry: ConversionRetryService;
  erasures: ErasureService;
  testAlerts: TestAlertService;
  pastEvents: PastEventService;
  imports: ImportService;
  workflowLink?: WorkflowLink;
}

/** The settings API under `/admin`, guarded by `Authorization: Bearer <ADMIN_TOKEN>`. */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, { repos, adminToken, tiktok, shopify, settings, members, links, conversionRetry, erasures, testAlerts, pastEvents, imports, workflowLink }) => {
  const requireAdminToken = createAdminTokenCheck(adminToken);
  app.addHook('onRequest', async (request) => requireAdminToken(request.headers.authorization));

  await app.register(workspaceCollectionRoutes, { prefix: '/workspaces', workspaces: repos.workspaces });
  await app.register(
    async (workspace) => {
      loadWorkspaceFromPath(workspace, repos.workspaces);
      await workspace.register(workspaceSettingsRoutes, { workspaceSettings: settings.workspaceSettings });
      await workspace.register(apiKeyRoutes, { prefix: '/api-keys', apiKeys: repos.apiKeys, keys: settings.apiKeys });
      await workspace.register(conversionRuleRoutes, { prefix: '/conversion-rules', conversionRules: repos.conversionRules, rules: settings.conversionRules, eventListing: repos.eventListing, pastEvents });
      await workspace.register(tiktokRoutes, { prefix: '/tiktok', connections: tiktok.connections });
      await workspace.register(tiktokOAuthRoutes, { prefix: '/tiktok/oauth', connections: tiktok.connections });
      await workspace.register(shopifyRoutes, { prefix: '/shopify', connections: shopify });
      await workspace.register(tiktokSelectionRoutes, { prefix: '/tiktok', connections: tiktok.connections, tiktokConnections: repos.tiktokConnections });
      await workspace.register(tiktokStatisticsRoutes, { prefix: '/tiktok', connections: tiktok.connections, reports: tiktok.reports });
      await workspace.register(tiktokTestConversionRoutes, { prefix: '/tiktok', sendTestConversion: tiktok.sendTestConversion });
      await workspace.register(adminMemberRoutes, { prefix: '/members', members, links });
      await workspace.register(tiktokAdUrlRoutes, { prefix: '/tiktok' });
      await workspace.register(conversionRoutes, { prefix: '/conversions', repos, conversionRetry, workflowLink });
      await workspace.register(eventRoutes, { prefix: '/events', eventListing: repos.eventListing });
      await workspace.register(importRoutes, { prefix: '/imports', imports });
      await workspace.register(diagnosticsRoutes, { prefix: '/diagnostics', repos });
      await workspace.register(matchKeyRoutes, { prefix: '/match-keys', coverage: repos.matchKeyCoverage });
      await workspace.register(erasureRoutes, { prefix: '/erasures', erasures, log: repos.erasures });
      await workspace.register(webhookSourceRoutes, { prefix: '/sources', sources: repos.webhookSources, service: settings.webhookSources, links });
      await workspace.register(alertRoutes, { prefix: '/alerts', testAlerts });
    },
    { prefix: '/workspaces/:workspaceId' },
  );
};
