import { hostname } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createTikTokClient } from '../adplatform/tiktok';
import { ConfigError, loadEnv, workerEnvSchema, type WorkerEnv } from '../config/env';
import { createDatabase, databaseTimeouts } from '../db/knex';
import { pendingMigrations, schemaAhead } from '../db/migration-status';
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
import { createWorkerLogger, installTemporalRuntime } from './logger';
import { createWorkerMetrics, type WorkerMetrics } from './metrics';
import { createWorkerReadiness } from './readiness';
import { WORKER_RUNNING } from './running';
import { ensureRecurringSchedules, reconcileAdStatsSchedules } from '../temporal/schedules';
import { ensureSearchAttributes } from '../temporal/search-attributes';
import { activityCancelTime, createStopSwitch } from './shutdown';
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
    schemaAhead: () => schemaAhead(async (sql) => db.raw(sql)),
    onFailure: (check, error) => logger.warn({ err: error, check }, 'readiness check failed'),
  });
  const server = await startHealthServer({ host: env.WORKER_HEALTH_HOST, port: env.WORKER_HEALTH_PORT, readiness, metrics: metrics.registry });
  logger.info({ url: server.url }, 'serving /healthz, /readyz and /metrics');
  return server;
}

/** The worker's composition root: configuration, pools and clients are built here and nowhere else. */
async function main(env: WorkerEnv, logger: Logger): Promise<void> {
  installTemporalRuntime(logger, env.LOG_LEVEL);
  const stop = createStopSwitch({ graceMs: env.WORKER_SHUTDOWN_GRACE_MS, logger });
  // Temporal's default identity, named in its history, and on each of this worker's log lines.
  const identity = `${process.pid}@${hostname()}`;
  const started: Started = {};
  const untilAvailable = <T>(step: string, run: () => Promise<T>) =>
    untilDone(run, { onFailure: (error, retryInMs) => logger.warn({ err: error, retryInMs }, `start-up: ${step} failed; retrying`) });

  const databaseLog = logger.child({ component: 'database' });
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX, timeouts: databaseTimeouts(env), logger: { warn: (message) => databaseLog.warn(message) } });
  const repos = createRepositories(db, createSecretBox(env.SECRET_KEY, env.SECRET_KEY_PREVIOUS));
  const metrics = createWorkerMetrics((top) => repos.conversions.pendingBacklog(top));
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

  const workerConnection = await untilAvailable('connecting the worker to Temporal', () => NativeConnection.connect(connectionOptions));
  const worker = await createSignalboxWorker({
    connection: workerConnection,
    namespace: env.TEMPORAL_NAMESPACE,
    taskQueue: env.TEMPORAL_TASK_QUEUE,
    identity,
    shutdownGraceTime: activityCancelTime(env.WORKER_SHUTDOWN_GRACE_MS),
    deps: {
      db,
      repos,
      tiktok: createTikTokClient({ baseUrl: env.TIKTOK_API_URL, onCall: metrics.tiktokCall }),
      pipelines: createPipelineWaker(client, env.TEMPORAL_TASK_QUEUE, repos.conversionPipelines),
      adStatsSchedules,
      pipeline: DEFAULT_PIPELINE_SETTINGS,
      metrics: metrics.pipeline,
      retentionMetrics: metrics.retention,
      log: logger.child({ worker: identity }),
      notify: { mailer: createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }), postWebhook: createWebhookPoster({ internalAddresses: env.ALERT_WEBHOOK_INTERNAL_ADDRESSES }) },
      stopping: stop.signal,
      publicUrl: env.PUBLIC_URL,
    },
  });
  started.worker = worker;
  // SIGTERM drains the worker (worker/shutdown.ts); run() resolves once it has stopped.
  const running = worker.run();
  stop.attach(worker);
  // Its pollers are subscribed once run() has been called. The dev stack waits for this line, so it is logged
  // whatever LOG_LEVEL says.
  logger.child({}, { level: 'info' }).info({ taskQueue: env.TEMPORAL_TASK_QUEUE, temporal: env.TEMPORAL_ADDRESS, tiktok: env.TIKTOK_API_URL, worker: identity }, WORKER_RUNNING);
  await running;
  await health?.close();
  // The last native connection closed shuts Temporal's runtime down, so that the process can end.
  await workerConnection.close();
  await clientConnection.close();
  await db.destroy();
  logger.info({ stoppedInMs: stop.stoppingForMs() }, 'worker stopped');
}

let env: WorkerEnv;
try {
  env = loadEnv(workerEnvSchema);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const logger = createWorkerLogger(env.LOG_LEVEL);
main(env, logger).catch((error: unknown) => {
  logger.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
