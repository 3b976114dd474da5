import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Knex } from 'knex';
import { createTikTokClient } from '../../adplatform/tiktok';
import type { TikTokOAuthApp } from '../../api/services/tiktok-connection';
import { pendingMigrations, schemaAhead } from '../../db/migration-status';
import { createSchemaErrorWatch } from '../../db/schema-errors';
import { createRepositories, type Repositories } from '../../db/repositories';
import type { PipelinePartition } from '../../db/repositories/conversion-pipelines';
import type { CreatedConversion } from '../../db/repositories/conversions';
import { createSecretBox } from '../../db/secret-box';
import { createAdStatsSchedules, type AdStatsSchedules } from '../../temporal/ad-stats-schedules';
import { createTestAlertSender } from '../../temporal/test-alerts';
import { createPastEventsStarter } from '../../temporal/past-events';
import { buildApp, type AppDeps } from '../../api/app';
import { createConversionRetryService } from '../../api/services/conversion-retry';
import { createErasureService } from '../../api/services/erasure';
import { createKnownLinks } from '../../api/ingest/known-links';
import { createReadinessCheck } from '../../db/readiness';
import { createBatchRecorder } from '../../api/ingest/record-batch';
import { createTikTokServices } from '../../api/services/tiktok-services';
import { createShopifyConnections } from '../../api/services/shopify-services';
import type { ShopifyApp } from '../../api/services/shopify-connection';
import { createMailer } from '../../notify/mailer';
import { openApiDocument } from '../../api/docs';
import { checkAnswersAgainstContract } from './contract-answers';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const TEST_SECRET_KEY = '5e'.repeat(32);
/** The app's `PUBLIC_URL` unless a test gives its own: links it mails or shows start with it. */
export const TEST_PUBLIC_URL = 'https://signalbox.test.example';
/** A link under TEST_PUBLIC_URL: `path` (a regular expression's source) follows the origin. */
export const publicLinkPattern = (path: string) => new RegExp(`^${TEST_PUBLIC_URL.replace(/\./g, '\\.')}${path}$`);
/** Nothing listens on the discard port: a test that passes no fake TikTok fails fast instead of calling TikTok. */
const NO_TIKTOK_URL = 'http://127.0.0.1:9';

/** Records the conversions ingest asked to wake a workflow for, in place of Temporal; `next()` resolves with the next call not yet taken. */
export function createStartRecorder() {
  const calls: CreatedConversion[][] = [];
  const waiters: ((batch: CreatedConversion[]) => void)[] = [];
  const woken: string[] = [];
  const wokenPartitions: PipelinePartition[] = [];
  let taken = 0;
  const hand = () => {
    while (waiters.length > 0 && taken < calls.length) (waiters.shift() as (batch: CreatedConversion[]) => void)(calls[taken++] as CreatedConversion[]);
  };
  return {
    calls,
    start: async (conversions: readonly CreatedConversion[]) => {
      calls.push([...conversions]);
      hand();
      return { woken: new Set(conversions.map((c) => c.workspaceId)).size, busy: 0, failed: [] };
    },
    /** Workspaces whose workflow a retry asked to wake. */
    woken,
    wake: async (workspaceIds: readonly string[]) => {
      woken.push(...workspaceIds);
      return { woken: workspaceIds.length, busy: 0, failed: [] };
    },
    /** Partitions whose workflow a change of the partition count asked to wake. */
    wokenPartitions,
    wakePartitions: async (partitions: readonly PipelinePartition[]) => {
      wokenPartitions.push(...partitions);
      return { woken: partitions.length, busy: 0, failed: [] };
    },
    next: () =>
      new Promise<CreatedConversion[]>((resolve) => {
        waiters.push(resolve);
        hand();
      }),
  };
}

export interface TestAppOptions extends Partial<AppDeps> {
  /** The TikTok API the TikTok routes call, e.g. a fake's URL. */
  tiktokApiUrl?: string;
  /** The Marketing API app for OAuth; default: not configured (manual tokens only). */
  oauth?: TikTokOAuthApp;
  /** The Signalbox Shopify app and where shops are reached (a fake Shopify's address with `{shop}`); default: not configured. */
  shopifyApp?: ShopifyApp & { shopUrl: string };
  /** Default: schedules on a task queue of this app's own, on the integration tier's Temporal dev server. */
  schedules?: AdStatsSchedules;
  /** Fastify's server options, e.g. `trustProxy`. */
  server?: FastifyServerOptions;
}

export interface TestApp {
  app: FastifyInstance;
  repos: Repositories;
  starts: ReturnType<typeof createStartRecorder>;
  /** A client of the integration tier's Temporal dev server (closed with the app), to check schedules. */
  temporal: Client;
}

function temporalTestAddress(): string {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (address === undefined) throw new Error('TEMPORAL_TEST_ADDRESS is not set: run integration tests through jest --selectProjects integration');
  return address;
}

/**
 * The real app over a test database. Conversion wake-ups go to a recorder instead of Temporal (that path is tested end
 * to end); the TikTok statistics schedules are real, on the Temporal dev server, connected on first use. Every answer
 * is checked against the OpenAPI document the app serves (contract-answers.ts).
 */
export function buildTestApp(db: Knex, options: TestAppOptions = {}): TestApp {
  const { tiktokApiUrl = NO_TIKTOK_URL, oauth = { authUrl: `${tiktokApiUrl}/portal/auth` }, schedules, server, shopifyApp, ...overrides } = options;
  const repos = createRepositories(db, createSecretBox(TEST_SECRET_KEY));
  const starts = createStartRecorder();
  const connection = Connection.lazy({ address: temporalTestAddress() });
  const temporal = new Client({ connection });
  const conversionRetry = createConversionRetryService({ db, repos, pipelines: { wakeWorkspaces: starts.wake } });
  const tiktok = createTikTokServices({
    db,
    repos,
    tiktok: createTikTokClient({ baseUrl: tiktokApiUrl, timeoutMs: 2_000 }),
    oauth,
    secretKey: TEST_SECRET_KEY,
    schedules: schedules ?? createAdStatsSchedules(temporal, { taskQueue: `test-app-${randomBytes(6).toString('hex')}` }),
    conversionRetry,
  });
  const shopify = createShopifyConnections({
    db,
    repos,
    app: { apiKey: shopifyApp?.apiKey, secret: shopifyApp?.secret },
    // A test that connects a shop passes the fake's address; the rest never call one (the discard port, as for TikTok).
    shopUrl: shopifyApp?.shopUrl ?? `${NO_TIKTOK_URL}/{shop}`,
    targets: { internalAddresses: 'allow' },
    publicUrl: overrides.publicUrl ?? TEST_PUBLIC_URL,
    secretKey: TEST_SECRET_KEY,
  });
  const { connectionString } = db.client.config.connection as { connectionString: string };
  const knownLinks = createKnownLinks();
  const schemaErrors = createSchemaErrorWatch();
  const app = buildApp(
    {
      db,
      checkReadiness: createReadinessCheck({ connectionString, timeoutMs: 2_000, pendingMigrations: () => pendingMigrations(db), schemaAhead, schemaErrors }),
      schemaErrors,
      repos,
      recordBatch: createBatchRecorder(repos, knownLinks),
      startConversions: starts.start,
      pipelines: { wakePartitions: starts.wakePartitions },
      conversionRetry,
      adminToken: TEST_ADMIN_TOKEN,
      publicUrl: TEST_PUBLIC_URL,
      tiktok,
      shopify,
      erasures: createErasureService({ db, repos, secretKey: TEST_SECRET_KEY, onErased: () => knownLinks.clear() }),
      mailer: createMailer({ smtpUrl: undefined, from: 'Signalbox <signalbox@test.example>' }),
      // No worker polls this task queue: a test that sends a test alert passes its pipeline's sender.
      sendTestAlert: createTestAlertSender(temporal, `test-app-alerts-${randomBytes(6).toString('hex')}`),
      // No worker polls this one either: a test that sends past events passes its pipeline's starter.
      startPastEvents: createPastEventsStarter(temporal, `test-app-past-events-${randomBytes(6).toString('hex')}`),
      ...overrides,
    },
    server,
  );
  app.addHook('onClose', async () => connection.close());
  checkAnswersAgainstContract(app, openApiDocument);
  return { app, repos, starts, temporal };
}
