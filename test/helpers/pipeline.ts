import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, type Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createTikTokClient } from '../../adplatform/tiktok';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE, startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { createRepositories, type Repositories } from '../../db/repositories';
import type { ConversionRule } from '../../db/repositories/conversion-rules';
import type { Workspace, WorkspaceSettings } from '../../db/repositories/workspaces';
import { createSecretBox } from '../../db/secret-box';
import type { ConversionRow } from '../../db/types';
import { defaultTikTokEvent } from '../../domain/event-mapping';
import { createBatchRecorder, type BatchRecorder } from '../../api/ingest/record-batch';
import { parseBatch } from '../../api/ingest/parse-messages';
import { createAdStatsSchedules, type AdStatsSchedules } from '../../temporal/ad-stats-schedules';
import { createPipelineWaker, type PipelineWaker } from '../../temporal/pipeline-waker';
import type { ActivityDeps, ActivityLog } from '../../activities/deps';
import { DEFAULT_PIPELINE_SETTINGS, type PipelineSettings } from '../../activities/group/settings';
import { createSignalboxWorker, workflowsPath } from '../../worker/create-worker';
import { createWorkerMetrics, type WorkerMetrics } from '../../worker/metrics';
import { createMailer } from '../../notify/mailer';
import { createWebhookPoster } from '../../notify/webhook';
import { createTestDatabase, type TestDatabase } from './database';

export const TEST_SECRET_KEY = '5e'.repeat(32);
export const TEST_MAIL_FROM = 'Signalbox <signalbox@test.example>';
/** The worker's `PUBLIC_URL` unless a test gives its own: alerts link to the console under it. */
export const TEST_CONSOLE_URL = 'https://signalbox.test.example';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** Bundling takes a second or two: once per test file. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } });
  return bundle;
}

export function temporalTestAddress(): string {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (address === undefined) throw new Error('TEMPORAL_TEST_ADDRESS is not set: run through jest --selectProjects integration');
  return address;
}

/** Expected activity failures (TikTok errors) would flood the test output; keep real errors. */
function quietWorkerLogs(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Already installed by an earlier test in this process.
  }
}

export interface WorkspaceSetup {
  rules?: (Partial<ConversionRule> & { sourceEvent: string })[];
  connected?: boolean;
  settings?: Partial<WorkspaceSettings>;
}

export interface TestPipelineOptions {
  /** Replaces the worker's group and retry settings (tests compress backoffs, leases and horizons). */
  pipeline?: Partial<PipelineSettings>;
  /** False: no worker in this process (a test runs its own, e.g. in a child process it kills). Default true. */
  worker?: boolean;
  /** A database of the test's own (e.g. on a private PostgreSQL it freezes). Default: a fresh one on the test server. */
  database?: TestDatabase;
  /** The mail server alerts go through (e.g. a test's mail sink). Default: none, every alert mail fails saying so. */
  smtpUrl?: string;
  /** The worker's `PUBLIC_URL`. Default: TEST_CONSOLE_URL. */
  publicUrl?: string;
  /** The worker's metrics (a test reads them from its registry). Default: a fresh, unread set. */
  metrics?: WorkerMetrics;
  /** The activities' logger. Default: none. */
  log?: ActivityLog;
}

/**
 * The whole conversion path on real services: a fresh PostgreSQL database, the shared Temporal dev server with a
 * worker on its own task queue, and the fake TikTok over HTTP. Ingest is driven through the batch recorder and the
 * waker exactly as the ingest API uses them.
 */
export class TestPipeline {
  private readonly workers: { worker: Worker; running: Promise<void>; connection: NativeConnection }[] = [];

  private constructor(
    readonly database: TestDatabase,
    readonly repos: Repositories,
    readonly recordBatch: BatchRecorder,
    readonly fake: FakeTikTok,
    readonly client: Client,
    readonly taskQueue: string,
    readonly waker: PipelineWaker,
    /** Statistics schedules on this pipeline's task queue (and the worker's `adStatsSchedules` dependency). */
    readonly adStatsSchedules: AdStatsSchedules,
    /** What the worker's activities get; tests call activities with it directly to play another claimer. */
    readonly deps: ActivityDeps,
    private readonly clientConnection: Connection,
  ) {}

  static async start(options: TestPipelineOptions = {}): Promise<TestPipeline> {
    quietWorkerLogs();
    const database = options.database ?? (await createTestDatabase());
    const repos = createRepositories(database.db, createSecretBox(TEST_SECRET_KEY));
    const fake = await startFakeTikTok();
    const clientConnection = await Connection.connect({ address: temporalTestAddress() });
    const client = new Client({ connection: clientConnection });
    const taskQueue = `test-${randomBytes(6).toString('hex')}`;
    const workerMetrics = options.metrics ?? createWorkerMetrics();
    const waker = createPipelineWaker(client, taskQueue, repos.conversionPipelines);
    const adStatsSchedules = createAdStatsSchedules(client, { taskQueue });
    const deps: ActivityDeps = {
      db: database.db,
      repos,
      tiktok: createTikTokClient({ baseUrl: fake.url, timeoutMs: 2_000 }),
      pipelines: waker,
      adStatsSchedules,
      pipeline: { ...DEFAULT_PIPELINE_SETTINGS, ...options.pipeline },
      metrics: workerMetrics.pipeline,
      retentionMetrics: workerMetrics.retention,
      log: options.log ?? { info: () => undefined },
      notify: { mailer: createMailer({ smtpUrl: options.smtpUrl, from: TEST_MAIL_FROM }), postWebhook: createWebhookPoster({ internalAddresses: 'allow' }) },
      publicUrl: options.publicUrl ?? TEST_CONSOLE_URL,
    };
    const pipeline = new TestPipeline(database, repos, createBatchRecorder(repos), fake, client, taskQueue, waker, adStatsSchedules, deps, clientConnection);
    if (options.worker ?? true) await pipeline.startWorker();
    return pipeline;
  }

  /** A worker in this process on the pipeline's task queue; called again, another one, as a second worker instance would be. */
  async startWorker(): Promise<void> {
    const connection = await NativeConnection.connect({ address: temporalTestAddress() });
    const worker = await createSignalboxWorker({
      connection,
      namespace: 'default',
      taskQueue: this.taskQueue,
      workflowBundle: await workflowBundle(),
      shutdownGraceTime: '1 second',
      deps: this.deps,
    });
    this.workers.push({ worker, running: worker.run(), connection });
  }

  /** What ingest calls after its commit: wakes the workspace's group workflow if it is idle. */
  get startConversions(): PipelineWaker['startConversions'] {
    return this.waker.startConversions;
  }

  async workspace(setup: WorkspaceSetup = {}): Promise<Workspace> {
    const workspace = await this.repos.workspaces.create(`Shop ${randomBytes(3).toString('hex')}`);
    if (setup.settings) await this.repos.workspaces.updateSettings(workspace.id, setup.settings);
    for (const rule of setup.rules ?? []) {
      await this.repos.conversionRules.put(workspace.id, {
        tiktokEvent: defaultTikTokEvent(rule.sourceEvent),
        valueSource: rule.sourceEvent === 'purchase' ? 'order_total' : 'none',
        fixedValue: null,
        currency: null,
        ...rule,
      });
    }
    if (setup.connected ?? true) {
      await this.repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    }
    return (await this.repos.workspaces.find(workspace.id)) as Workspace;
  }

  /** What `POST /v1/batch` does: validate, commit, then wake the workspace's group workflow. */
  async ingest(workspace: Workspace, messages: unknown[], options: { start?: boolean; fromAppKey?: boolean } = {}): Promise<ConversionRow[]> {
    const receivedAt = new Date();
    const result = await this.recordBatch(workspace, parseBatch({ batch: messages }, receivedAt).messages, { receivedAt, fromAppKey: options.fromAppKey });
    if (options.start ?? true) await this.startConversions(result.conversions);
    return Promise.all(result.conversions.map(async (c) => (await this.repos.conversions.find(c.id)) as ConversionRow));
  }

  /** Waits until the conversion has left `pending` and returns the final row. */
  async settled(conversion: Pick<ConversionRow, 'id'>, timeoutMs = 60_000): Promise<ConversionRow> {
    for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const row = (await this.repos.conversions.find(conversion.id)) as ConversionRow;
      if (row.status !== 'pending') return row;
      if (Date.now() > deadline) throw new Error(`conversion ${conversion.id} still pending after ${timeoutMs} ms`);
    }
  }

  /** The group workflows of this pipeline's task queue are terminated: they would wait on the shared server forever. */
  async close(): Promise<void> {
    for await (const execution of this.client.workflow.list({ query: `TaskQueue = '${this.taskQueue}' AND ExecutionStatus = 'Running'` })) {
      await this.client.workflow.getHandle(execution.workflowId).terminate('test finished').catch(() => undefined);
    }
    for (const { worker, running, connection } of this.workers) {
      worker.shutdown();
      await running;
      await connection.close();
    }
    await this.clientConnection.close();
    await this.fake.close();
    await this.database.destroy();
  }
}
