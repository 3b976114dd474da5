import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import type { Repositories } from '../../db/repositories';
import type { MemberService } from '../services/accounts/members';
import type { ConversionRetryService } from '../services/conversion-retry';
import type { ErasureService } from '../services/erasure';
import type { SignInService } from '../services/accounts/sign-in';
import type { SettingsServices } from '../services/settings';
import type { AlertSettingsService } from '../services/alerts/alert-settings';
import type { TestAlertService } from '../services/alerts/test-alert';
import type { PastEventService } from '../services/past-events';
import type { PasswordResetService } from '../services/accounts/password-reset';
import type { PublicLinks } from '../http/public-links';
import type { InvitationMail } from '../services/accounts/invitation-mail';
import { createConsoleWorkspaceService } from '../services/accounts/workspaces';
import type { TikTokServices } from '../services/tiktok-services';
import type { ShopifyConnectionService } from '../services/shopify-connection';
import { loadWorkspaceMembership, refuseForeignOrigin, requireSession } from './auth';
import { adRoutes } from './routes/ads';
import { alertRoutes } from './routes/alerts';
import { passwordResetRoutes } from './routes/password-reset';
import { conversionRoutes } from './routes/conversions';
import { debuggerRoutes } from './routes/debugger';
import { diagnosticsRoutes } from './routes/diagnostics';
import { memberRoutes } from './routes/members';
import { overviewRoutes } from './routes/overview';
import { peopleRoutes } from './routes/people';
import { privacyRoutes } from './routes/privacy';
import { ruleRoutes } from './routes/rules';
import { sendAgainRoutes } from './routes/send-again';
import { sessionRoutes } from './routes/session';
import { setupRoutes } from './routes/setup';
import { consoleShopifyRoutes } from './routes/shopify';
import { sourceRoutes } from './routes/sources';
import { webhookSourceConsoleRoutes } from './routes/webhook-sources';
import { workspaceRoutes } from './routes/workspace';

export interface ConsoleApiOptions {
  db: Knex;
  repos: Repositories;
  settings: SettingsServices;
  tiktok: TikTokServices;
  shopify: ShopifyConnectionService;
  signIn: SignInService;
  members: MemberService;
  /** Sends failed conversions again (the pipeline's retry service). */
  conversionRetry: ConversionRetryService;
  /** Erases a person on an owner's privacy request. */
  erasures: ErasureService;
  alerts: AlertSettingsService;
  testAlerts: TestAlertService;
  pastEvents: PastEventService;
  passwordResets: PasswordResetService;
  /** Mails an invitation's link to the person invited. */
  mailInvitation: InvitationMail;
  links: PublicLinks;
}

/**
 * The console's JSON API under `/console/api`: session cookie auth, CSRF token on writes, and every workspace route
 * behind the person's membership (another workspace is a 404). The admin token plays no part here.
 */
export const consoleApiRoutes: FastifyPluginAsync<ConsoleApiOptions> = async (app, options) => {
  const { db, repos, settings, tiktok, shopify, signIn, members, conversionRetry, erasures, alerts, testAlerts, pastEvents, passwordResets, mailInvitation, links } = options;
  app.decorateRequest('consoleUser', null);
  app.decorateRequest('consoleSession', null);
  app.decorateRequest('consoleWorkspace', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    refuseForeignOrigin(request);
  });

  const consoleWorkspaces = createConsoleWorkspaceService({ db, repos });
  await app.register(sessionRoutes, { repos, signIn, members, workspaces: consoleWorkspaces });
  await app.register(passwordResetRoutes, { passwordResets });
  await app.register(
    async (workspace) => {
      requireSession(workspace, signIn);
      loadWorkspaceMembership(workspace, { users: repos.users, workspaces: repos.workspaces });
      await workspace.register(workspaceRoutes, { repos, workspaceSettings: settings.workspaceSettings, connections: tiktok.connections, workspaces: consoleWorkspaces });
      await workspace.register(overviewRoutes, { db, repos });
      await workspace.register(setupRoutes, { repos });
      await workspace.register(sourceRoutes, { repos, connections: tiktok.connections, keys: settings.apiKeys, links });
      await workspace.register(consoleShopifyRoutes, { connections: shopify });
      await workspace.register(webhookSourceConsoleRoutes, { sources: repos.webhookSources, service: settings.webhookSources, links });
      await workspace.register(ruleRoutes, { repos, rules: settings.conversionRules, sendTestConversion: tiktok.sendTestConversion, pastEvents });
      await workspace.register(conversionRoutes, { db, repos, conversionRetry });
      await workspace.register(sendAgainRoutes, { db, repos, conversionRetry });
      await workspace.register(debuggerRoutes, { repos, signIn });
      await workspace.register(diagnosticsRoutes, { db, repos });
      await workspace.register(peopleRoutes, { repos });
      await workspace.register(adRoutes, { reports: tiktok.reports, connections: tiktok.connections });
      await workspace.register(memberRoutes, { members, links, mailInvitation });
      await workspace.register(privacyRoutes, { repos, erasures });
      await workspace.register(alertRoutes, { repos, alerts, testAlerts });
    },
    { prefix: '/workspaces/:workspaceId' },
  );
};
