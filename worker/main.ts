import { hostname } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { createTikTokClient } from '../adplatform/tiktok';
import { ConfigError, loadEnv, workerEnvSchema, type WorkerEnv } from '../config/env';
import { createDatabase, databaseTimeouts } from '../db/knex';
import { pendingMigrations } from '../db/migration-status';
import { createReadinessCheck } from '../db/readiness';
import { createRepositories } from '../db/repositories';
import { createSecretBox } from '../db/secret-box';
import { createAdStatsSchedules } from '../temporal/ad-stats-schedules';
import { temporalConnectionOptions } from '../temporal/connection';
import { createPipelineWaker } from '../temporal/pipeline-waker';
import { DEFAULT_PIPELINE_SETTINGS } from '../activities/group/settings';
import { createMailer } from '../notify/mailer';
import { createWebhookPoster } from '../notify/webhook';
import { createSignalboxWorker } from './create-worker';
import { startHealthServer, type RunningHealthServer } from './health-server';
import { createWorkerMetrics, type WorkerMetrics } from './metrics';
import { createWorkerReadiness } from './readiness';
import { WORKER_RUNNING } from './running';
import { ensureRecurringSchedules, reconcileAdStatsSchedules } from '../temporal/schedules';
import { ensureSearchAttributes } from '../temporal/search-attributes';
import { untilDone } from './until-done';

/** What readiness asks about once start-up has got that far. */
interface Started {
  connection?: Connection;
  worker?: Worker;
}

/** `/healthz`, `/readyz` and `/metrics` on WORKER_HEALTH_PORT, from the start on (not ready until the worker runs). */
async function serveHealth(env: WorkerEnv, logger: Logger, metrics: WorkerMetrics, db: Knex, started: Started): Promise<RunningHealthServer | undefined> {
  if (env.WORKER_HEALTH_PORT === undefined) return undefined;
  const readiness = createWorkerReadiness({
    timeoutMs: env.READINESS_TIMEOUT_MS,
    workerState: () => started.worker?.getState(),
    temporal: async () => {
      const { connection } = started;
      if (connection === undefined) throw new Error('not connected to Temporal yet');
      await connection.withDeadline(Date.now() + env.READINESS_TIMEOUT_MS, () => connection.workflowService.getSystemInfo({}));
    },
    database: createReadinessCheck({ connectionString: env.DATABASE_URL, timeoutMs: env.READINESS_TIMEOUT_MS }),
    pendingMigrations: () => pendingMigrations(db),
    onFailure: (check, error) => logger.warn({ err: error, check }, 'readiness check failed'),
  });
  const server = await startHealthServer({ host: env.WORKER_HEALTH_HOST, port: env.WORKER_HEALTH_PORT, readiness, metrics: metrics.registry });
  logger.info({ url: server.url }, 'serving /healthz, /readyz and /metrics');
  return server;
}

/** The worker's composition root: configuration, pools and clients are built here and nowhere else. */
async function main(): Promise<void> {
  const env = loadEnv(workerEnvSchema);
  const logger = pino({ level: env.LOG_LEVEL, name: 'signalbox-worker' });
  // Temporal's default identity, named in its history, and on each of this worker's log lines.
  const identity = `${process.pid}@${hostname()}`;
  const metrics = createWorkerMetrics();
  const started: Started = {};
  const untilAvailable = <T>(step: string, run: () => Promise<T>) =>
    untilDone(run, { onFailure: (error, retryInMs) => logger.warn({ err: error, retryInMs }, `start-up: ${step} failed; retrying`) });

  const databaseLog = logger.child({ component: 'database' });
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX, timeouts: databaseTimeouts(env), logger: { warn: (message) => databaseLog.warn(message) } });
  const repos = createRepositories(db, createSecretBox(env.SECRET_KEY));
  const health = await serveHealth(env, logger, metrics, db, started);
  const connectionOptions = temporalConnectionOptions(env);
  const clientConnection = await untilAvailable('connecting to Temporal', () => Connection.connect(connectionOptions));
  started.connection = clientConnection;
  const client = new Client({ connection: clientConnection, namespace: env.TEMPORAL_NAMESPACE });

  const added = await ensureSearchAttributes(clientConnection, env.TEMPORAL_NAMESPACE).catch((error: unknown) => {
    logger.warn({ err: error }, 'could not register the search attributes: run `signalbox temporal setup` (on Temporal Cloud it prints the tcld command)');
    return [];
  });
  if (added.length > 0) logger.info({ added }, 'registered search attributes');
  await untilAvailable('creating the schedules', () => ensureRecurringSchedules(client, env.TEMPORAL_TASK_QUEUE));
  const adStatsSchedules = createAdStatsSchedules(client, { taskQueue: env.TEMPORAL_TASK_QUEUE, every: env.TIKTOK_STATS_PULL_INTERVAL });
  const reconciled = await untilAvailable('reconciling the TikTok statistics schedules with the database', () =>
    reconcileAdStatsSchedules(repos.tiktokConnections, adStatsSchedules),
  );
  if (reconciled.created > 0) logger.info(reconciled, 'created missing TikTok statistics schedules');

  // Installed after the waits above: the Runtime traps SIGINT/SIGTERM, which must still stop a worker that is waiting.
  Runtime.install({
    logger: new DefaultLogger(env.LOG_LEVEL === 'silent' ? 'ERROR' : 'INFO', ({ level, message, meta }) => {
      logger[level === 'TRACE' ? 'trace' : (level.toLowerCase() as 'debug' | 'info' | 'warn' | 'error')](meta ?? {}, message);
    }),
  });
  const worker = await createSignalboxWorker({
    connection: await untilAvailable('connecting the worker to Temporal', () => NativeConnection.connect(connectionOptions)),
    namespace: env.TEMPORAL_NAMESPACE,
    taskQueue: env.TEMPORAL_TASK_QUEUE,
    identity,
    deps: {
      db,
      repos,
      tiktok: createTikTokClient({ baseUrl: env.TIKTOK_API_URL, onCall: metrics.tiktokCall }),
      pipelines: createPipelineWaker(client, env.TEMPORAL_TASK_QUEUE, repos.conversionPipelines),
      adStatsSchedules,
      pipeline: DEFAULT_PIPELINE_SETTINGS,
      metrics: metrics.pipeline,
      log: logger.child({ worker: identity }),
      notify: { mailer: createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }), postWebhook: createWebhookPoster({ internalAddresses: env.ALERT_WEBHOOK_INTERNAL_ADDRESSES }) },
      publicUrl: env.PUBLIC_URL,
    },
  });
  started.worker = worker;
  // The Runtime traps SIGINT/SIGTERM and drains the worker; run() resolves once it has stopped.
  const running = worker.run();
  // Its pollers are subscribed once run() has been called. The dev stack waits for this line, so it is logged
  // whatever LOG_LEVEL says.
  logger.child({}, { level: 'info' }).info({ taskQueue: env.TEMPORAL_TASK_QUEUE, temporal: env.TEMPORAL_ADDRESS, tiktok: env.TIKTOK_API_URL, worker: identity }, WORKER_RUNNING);
  await running;
  await health?.close();
  await clientConnection.close();
  await db.destroy();
  logger.info('worker stopped');
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
