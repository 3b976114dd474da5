import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import type { DestinationStream, Logger } from 'pino';
import { createTikTokClient } from '../adplatform/tiktok';
import { ConfigError, ingestEnvSchema, loadEnv, type IngestEnv } from '../config/env';
import { createDatabase, databaseTimeouts } from '../db/knex';
import { pendingMigrations, schemaAhead } from '../db/migration-status';
import { createSchemaErrorWatch } from '../db/schema-errors';
import { createRepositories, type Repositories } from '../db/repositories';
import { createSecretBox } from '../db/secret-box';
import { createAdStatsSchedules } from '../temporal/ad-stats-schedules';
import { temporalConnectionOptions } from '../temporal/connection';
import { createPipelineWaker } from '../temporal/pipeline-waker';
import { buildApp } from './app';
import { createConversionRetryService } from './services/conversion-retry';
import { createErasureService } from './services/erasure';
import { createKnownLinks } from './ingest/known-links';
import { createReadinessCheck } from '../db/readiness';
import { createBatchRecorder } from './ingest/record-batch';
import { createRequestLogger } from './http/request-log';
import { createPublicLinks } from './http/public-links';
import type { WorkflowLink } from './http/conversion-view';
import { createShopifyConnections } from './services/shopify-services';
import { createTikTokServices } from './services/tiktok-services';
import { loadTrackingScript, type TrackingScript } from './ingest/tracking-script';
import { createMailer } from '../notify/mailer';
import { createTestAlertSender } from '../temporal/test-alerts';
import { createPastEventsStarter } from '../temporal/past-events';

export interface IngestServerOptions {
  /** Where the log goes; default: stdout. */
  logDestination?: DestinationStream;
  /** Default: the built bundle (`npm run build`). */
  trackingScript?: TrackingScript;
}

export interface RunningIngest {
  url: string;
  close(): Promise<void>;
}

function temporalWorkflowLink(env: IngestEnv): WorkflowLink | undefined {
  const ui = env.TEMPORAL_UI_URL?.replace(/\/+$/, '');
  if (ui === undefined) return undefined;
  return (workflowId, runId) =>
    `${ui}/namespaces/${encodeURIComponent(env.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}${runId === null ? '' : `/${encodeURIComponent(runId)}/history`}`;
}

function trustedHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/**
 * Opens the pool's first connection before the server takes requests. A process restarted under load would otherwise
 * make its first requests wait for it to open (~25 ms on the benchmark machine) while more arrive behind them: the
 * cold start was the whole p99 of `bench/ingest`'s single events. PostgreSQL being down is no reason not to start:
 * ingest answers 503 until it is back, as it does for an outage later.
 */
async function openFirstConnection(db: Knex, log: Logger): Promise<void> {
  await db.raw('SELECT 1').catch((error: unknown) => log.warn({ err: error }, 'PostgreSQL not reachable at start-up; requests that store get 503 until it is'));
}

/**
 * The partitions of `events` for today and the coming week, in case the worker's retention schedule (which creates
 * them every hour) has not run for days: ingest cannot store an event of a day without one. In the background: a
 * partition waits for a moment when no transaction writes events.
 */
function ensureComingEventDays(repos: Repositories, log: Logger): void {
  repos.eventDays.ensureComing().catch((error: unknown) => log.warn({ err: error }, 'could not create the coming days’ partitions of events'));
}

/**
 * Starts the ingest + settings API. The Temporal connection is lazy: ingest accepts events while Temporal is down,
 * and the conversions whose workflow it could not wake stay `pending` for the sweeper; only the TikTok statistics
 * schedule routes need it (they answer 503 while it is unreachable).
 */
export async function startIngestServer(env: IngestEnv, { logDestination, trackingScript = loadTrackingScript() }: IngestServerOptions = {}): Promise<RunningIngest> {
  const logger = createRequestLogger(env.LOG_LEVEL, logDestination);
  const databaseLog = logger.child({ component: 'database' });
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX, timeouts: databaseTimeouts(env), logger: { warn: (message) => databaseLog.warn(message) } });
  const repos = createRepositories(db, createSecretBox(env.SECRET_KEY, env.SECRET_KEY_PREVIOUS));
  const connection = Connection.lazy(temporalConnectionOptions(env));
  const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
  const pipelines = createPipelineWaker(client, env.TEMPORAL_TASK_QUEUE, repos.conversionPipelines);
  const conversionRetry = createConversionRetryService({ db, repos, pipelines });
  const oauthRedirectUri = env.TIKTOK_OAUTH_REDIRECT_URI ?? createPublicLinks(env.PUBLIC_URL).tiktokOAuthCallback;
  const tiktok = createTikTokServices({
    db,
    repos,
    tiktok: createTikTokClient({ baseUrl: env.TIKTOK_API_URL }),
    oauth: { appId: env.TIKTOK_APP_ID, secret: env.TIKTOK_APP_SECRET, redirectUri: oauthRedirectUri, authUrl: env.TIKTOK_AUTH_URL },
    secretKey: env.SECRET_KEY,
    previousSecretKey: env.SECRET_KEY_PREVIOUS,
    schedules: createAdStatsSchedules(client, { taskQueue: env.TEMPORAL_TASK_QUEUE, every: env.TIKTOK_STATS_PULL_INTERVAL }),
    conversionRetry,
  });

  const shopify = createShopifyConnections({
    db,
    repos,
    app: { apiKey: env.SHOPIFY_API_KEY, secret: env.SHOPIFY_API_SECRET },
    shopUrl: env.SHOPIFY_SHOP_URL,
    targets: { internalAddresses: env.ALERT_WEBHOOK_INTERNAL_ADDRESSES },
    publicUrl: env.PUBLIC_URL,
    secretKey: env.SECRET_KEY,
    previousSecretKey: env.SECRET_KEY_PREVIOUS,
  });

  const knownLinks = createKnownLinks();
  const schemaErrors = createSchemaErrorWatch();
  const app = buildApp(
    {
      db,
      checkReadiness: createReadinessCheck({
        connectionString: env.DATABASE_URL,
        timeoutMs: env.READINESS_TIMEOUT_MS,
        pendingMigrations: () => pendingMigrations(db),
        schemaAhead,
        schemaErrors,
      }),
      schemaErrors,
      repos,
      recordBatch: createBatchRecorder(repos, knownLinks),
      storageDeadlineMs: env.INGEST_STORAGE_DEADLINE_MS,
      startConversions: pipelines.startConversions,
      pipelines,
      conversionRetry,
      adminToken: env.ADMIN_TOKEN,
      publicUrl: env.PUBLIC_URL,
      tiktok,
      shopify,
      sendTestAlert: createTestAlertSender(client, env.TEMPORAL_TASK_QUEUE),
      startPastEvents: createPastEventsStarter(client, env.TEMPORAL_TASK_QUEUE),
      erasures: createErasureService({ db, repos, secretKey: env.SECRET_KEY, onErased: () => knownLinks.clear() }),
      mailer: createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }),
      alertWebhooks: { internalAddresses: env.ALERT_WEBHOOK_INTERNAL_ADDRESSES },
      workflowLink: temporalWorkflowLink(env),
      trackingScript,
      tiktokPixelUrl: env.TIKTOK_PIXEL_URL,
    },
    {
      loggerInstance: logger,
      requestTimeout: 30_000,
      // A hop count as the function Fastify builds from one (its types accept no number).
      trustProxy: typeof env.TRUST_PROXY === 'number' ? trustedHops(env.TRUST_PROXY) : env.TRUST_PROXY,
      // Longer than the usual 60 s idle timeout of load balancers, so they never reuse a connection we closed.
      keepAliveTimeout: 72_000,
    },
  );
  app.addHook('onClose', async () => {
    await connection.close();
    await db.destroy();
  });

  await openFirstConnection(db, databaseLog);
  ensureComingEventDays(repos, databaseLog);
  const url = await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    { url, temporal: env.TEMPORAL_ADDRESS, tiktok: env.TIKTOK_API_URL, tiktokOAuth: env.TIKTOK_APP_ID === undefined ? 'not configured (manual tokens only)' : oauthRedirectUri },
    `Signalbox ingest API listening at ${url}`,
  );
  return { url, close: () => app.close() };
}

async function main(): Promise<void> {
  const server = await startIngestServer(loadEnv(ingestEnvSchema));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('ingest: shutdown failed', error);
          process.exit(1);
        },
      );
    });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
