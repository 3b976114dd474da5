import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Knex } from 'knex';
import { DEFAULT_TIKTOK_PIXEL_URL } from '../config/env';
import type { Repositories } from '../db/repositories';
import { createCredentialCache } from './ingest/auth/credential-cache';
import { consoleApiRoutes } from './console';
import { consoleAppRoutes } from './console/static-app';
import { createMemberService } from './services/accounts/members';
import { createPasswordAttempts } from './services/accounts/password-attempts';
import { createSignInService } from './services/accounts/sign-in';
import { createInvitationMail } from './services/accounts/invitation-mail';
import { createPasswordResetService } from './services/accounts/password-reset';
import { createPublicLinks } from './http/public-links';
import { createAlertSettingsService } from './services/alerts/alert-settings';
import { createTestAlertService } from './services/alerts/test-alert';
import type { TestAlertSender } from '../temporal/test-alerts';
import type { PastEventsStarter } from '../temporal/past-events';
import { createPastEventService } from './services/past-events';
import { createImportService } from './services/imports';
import type { Mailer } from '../notify/mailer';
import type { WebhookTargetRule } from '../notify/webhook-target';
import { registerErrorHandling } from './error-handler';
import { registerJsonBodyParser } from './http/json-body';
import { MAX_PATH_PARAMETER_LENGTH, REFUSED_DELIVERIES_PER_SECOND_PER_SOURCE, REFUSED_DELIVERY_BURST_PER_SOURCE, REQUEST_BURST_PER_WORKSPACE, REQUESTS_PER_SECOND_PER_WORKSPACE } from './http/limits';
import { createIngestMetrics } from './http/metrics';
import type { ConversionRetryService } from './services/conversion-retry';
import type { ErasureService } from './services/erasure';
import { createShopifyPrivacy } from './services/shopify-privacy';
import type { ReadinessCheck } from '../db/readiness';
import type { SchemaErrorWatch } from '../db/schema-errors';
import type { BatchRecorder } from './ingest/record-batch';
import { createRefusalLog } from './ingest/refusal-log';
import { adminRoutes } from './admin';
import type { WorkflowLink } from './http/conversion-view';
import { browserConfigRoutes } from './ingest/browser-config';
import { docsRoutes } from './docs';
import { healthRoutes } from './health';
import { ingestRoutes, type StartConversions } from './ingest';
import { createKeyUseLog } from './ingest/key-use';
import { createAfterCommit } from './ingest/after-commit';
import { createSourceActivity } from './ingest/source-activity';
import { webhookRoutes } from './ingest/webhook-routes';
import type { RateLimitSettings } from './ingest/rate-limit';
import { ingestPreflightRoutes } from './ingest/cors';
import { metricsRoutes } from './http/metrics-route';
import { tiktokOAuthCallbackRoutes } from './oauth/tiktok-callback';
import { shopifyOAuthCallbackRoutes } from './oauth/shopify-callback';
import { shopifyAppRoutes } from './ingest/shopify-app-routes';
import type { ShopifyConnectionService } from './services/shopify-connection';
import { trackingScriptRoutes } from './ingest/tracking-script-route';
import { createSettingsServices } from './services/settings';
import { DEFAULT_STORAGE_DEADLINE_MS } from './ingest/storage-deadline';
import type { TikTokServices } from './services/tiktok-services';
import type { TrackingScript } from './ingest/tracking-script';
import type { PipelineWaker } from '../temporal/pipeline-waker';

export interface AppDeps {
  /** For `/readyz` and settings writes that commit together with their change-log entry. */
  db: Knex;
  /** `/readyz`: PostgreSQL answers on a connection of its own within a short deadline, with the schema this code needs. */
  checkReadiness: ReadinessCheck;
  /** Told the SQLSTATE of every statement the database refused; `checkReadiness` watches it for a newer build's schema. */
  schemaErrors?: SchemaErrorWatch;
  repos: Repositories;
  recordBatch: BatchRecorder;
  /** Wakes the workflows that process newly committed conversions, after the response; failures are logged, never thrown. */
  startConversions: StartConversions;
  /** Wakes a workspace's group workflows when its partition count changes (settings). */
  pipelines: Pick<PipelineWaker, 'wakePartitions'>;
  /** Sends failed conversions again (settings API). */
  conversionRetry: ConversionRetryService;
  adminToken: string;
  /** TikTok connection (OAuth, advertiser and pixel, statistics schedule), reports and test conversions. */
  tiktok: TikTokServices;
  /** Connect Shopify (the Signalbox app installed in a shop); says it is not set up without SHOPIFY_API_KEY and SHOPIFY_API_SECRET. */
  shopify: ShopifyConnectionService;
  /** `PUBLIC_URL`: every link mailed or shown (resets, invitations, the tag) is built from it, never from `Host`. */
  publicUrl: string;
  /** Password reset links go out through it (SMTP_URL). */
  mailer: Mailer;
  /** Erasure of a person's data (settings API). */
  erasures: ErasureService;
  /** `ALERT_WEBHOOK_INTERNAL_ADDRESSES`, checked when an alert webhook URL is saved; default: internal addresses refused. */
  alertWebhooks?: WebhookTargetRule;
  /** "Send a test alert": runs on a worker, where alerts are sent (temporal/test-alerts.ts). */
  sendTestAlert: TestAlertSender;
  /** "Send past events": starts a run's workflow on a worker (temporal/past-events.ts). */
  startPastEvents: PastEventsStarter;
  /** Link to a conversion's workflow (and run) in the Temporal UI, shown by the conversion detail. */
  workflowLink?: WorkflowLink;
  /** Default: 1,000 requests per second per workspace (spec §8), with bursts of 1,000 more. */
  rateLimit?: RateLimitSettings;
  /** Default: 10 requests per second per webhook source that its signature refuses, with bursts of 20 more. */
  refusedWebhookRateLimit?: RateLimitSettings;
  /** `INGEST_STORAGE_DEADLINE_MS`: an ingest request's storage work past it is answered 503 (default 5 s). */
  storageDeadlineMs?: number;
  /** How long an API key lookup is cached in-process (default 5 s). */
  credentialCacheTtlMs?: number;
  /** The browser tracking script served at `/js/v1/signalbox.js`; without it that path is a 404. */
  trackingScript?: TrackingScript;
  /** `TIKTOK_PIXEL_URL`: TikTok's pixel library, which the browser config tells the tag to load (default TikTok's own). */
  tiktokPixelUrl?: string;
  /** The built console (Vite's output); default `dist/console`. */
  consoleDirectory?: string;
}

/** The whole HTTP app, not listening: `server.ts` listens, tests use `app.inject`. */
export function buildApp(deps: AppDeps, options: FastifyServerOptions = {}): FastifyInstance {
  const app = Fastify({ ...options, routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH, ...options.routerOptions } });
  const metrics = createIngestMetrics({ internalErrors: () => deps.repos.conversions.countInternalErrors() });
  const credentials = createCredentialCache(deps.repos, { ttlMs: deps.credentialCacheTtlMs });
  const settings = createSettingsServices({ db: deps.db, repos: deps.repos, pipelines: deps.pipelines, onCredentialsChange: () => credentials.clear() });
  const passwordAttempts = createPasswordAttempts({ repos: deps.repos });
  const members = createMemberService({ db: deps.db, repos: deps.repos, attempts: passwordAttempts });
  const links = createPublicLinks(deps.publicUrl);
  const testAlerts = createTestAlertService({ repos: deps.repos, send: deps.sendTestAlert });
  const pastEvents = createPastEventService({ db: deps.db, repos: deps.repos, start: deps.startPastEvents });
  const refusals = createRefusalLog({ repos: deps.repos, log: app.log });
  app.addHook('onClose', async () => refusals.drain());
  const keyUse = createKeyUseLog({ apiKeys: deps.repos.apiKeys, log: app.log });
  app.addHook('onClose', async () => keyUse.drain());
  const sourceActivity = createSourceActivity({ sources: deps.repos.webhookSources, log: app.log });
  app.addHook('onClose', async () => sourceActivity.drain());
  const rateLimit = deps.rateLimit ?? { perSecond: REQUESTS_PER_SECOND_PER_WORKSPACE, burst: REQUEST_BURST_PER_WORKSPACE };
  const storageDeadlineMs = deps.storageDeadlineMs ?? DEFAULT_STORAGE_DEADLINE_MS;

  registerErrorHandling(app, deps.schemaErrors);
  registerJsonBodyParser(app);
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.inc({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) });
  });

  void app.register(healthRoutes, { checkReadiness: deps.checkReadiness });
  void app.register(metricsRoutes, { metrics });
  void app.register(docsRoutes);
  if (deps.trackingScript) void app.register(trackingScriptRoutes, { script: deps.trackingScript });
  void app.register(browserConfigRoutes, { credentials, pixelLibraryUrl: deps.tiktokPixelUrl ?? DEFAULT_TIKTOK_PIXEL_URL });
  void app.register(ingestPreflightRoutes, { credentials });
  void app.register(ingestRoutes, {
    credentials,
    metrics,
    recordBatch: deps.recordBatch,
    startConversions: deps.startConversions,
    rateLimit,
    storageDeadlineMs,
    refusals,
    keyUse,
  });
  const privacy = createShopifyPrivacy({ db: deps.db, repos: deps.repos, erasures: deps.erasures });
  const afterCommit = createAfterCommit(metrics, deps.startConversions);
  void app.register(webhookRoutes, {
    repos: deps.repos,
    recordBatch: deps.recordBatch,
    afterCommit,
    rateLimit,
    refusedRateLimit: deps.refusedWebhookRateLimit ?? { perSecond: REFUSED_DELIVERIES_PER_SECOND_PER_SOURCE, burst: REFUSED_DELIVERY_BURST_PER_SOURCE },
    storageDeadlineMs,
    refusals,
    activity: sourceActivity,
    privacy,
  });
  void app.register(tiktokOAuthCallbackRoutes, { connections: deps.tiktok.connections });
  void app.register(shopifyOAuthCallbackRoutes, { connections: deps.shopify });
  void app.register(shopifyAppRoutes, { connections: deps.shopify, privacy, workspaces: deps.repos.workspaces, storageDeadlineMs });
  const imports = createImportService({
    repos: deps.repos,
    record: async (workspace, messages, receivedAt) => {
      const result = await deps.recordBatch(workspace, messages, { receivedAt });
      afterCommit(messages.length, result, app.log);
      return result;
    },
  });
  void app.register(adminRoutes, { prefix: '/admin', repos: deps.repos, adminToken: deps.adminToken, tiktok: deps.tiktok, shopify: deps.shopify, settings, members, links, conversionRetry: deps.conversionRetry, erasures: deps.erasures, testAlerts, pastEvents, imports, workflowLink: deps.workflowLink });
  void app.register(consoleApiRoutes, {
    prefix: '/console/api',
    db: deps.db,
    repos: deps.repos,
    settings,
    tiktok: deps.tiktok,
    shopify: deps.shopify,
    signIn: createSignInService({ db: deps.db, repos: deps.repos, attempts: passwordAttempts }),
    members,
    conversionRetry: deps.conversionRetry,
    erasures: deps.erasures,
    alerts: createAlertSettingsService({ db: deps.db, repos: deps.repos, webhookTargets: deps.alertWebhooks ?? { internalAddresses: 'refuse' } }),
    testAlerts,
    pastEvents,
    passwordResets: createPasswordResetService({ db: deps.db, repos: deps.repos, mailer: deps.mailer, log: app.log, links }),
    mailInvitation: createInvitationMail({ mailer: deps.mailer, links }),
    links,
  });
  void app.register(consoleAppRoutes, { directory: deps.consoleDirectory });
  return app;
}
