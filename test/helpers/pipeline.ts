import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, type Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createTikTokClient } from '../../adplatform/tiktok';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE, startFakeTikTok, type FakeTikTok } from '../../adplatform/tiktok-fake';
import { createRepositories, type Repositories } from '../../db/repositories';
import type { ConversionRule } from '../../db/repositories/conversion-rules';
import type { Workspace, WorkspaceSettings } from '../../db/repositories/workspaces';
import { createSecretBox } from '../../db/secret-box';
import type { ConversionRow } from '../../db/types';
import { defaultTikTokEvent } from '../../domain/event-mapping';
import { createBatchRecorder, type BatchRecorder } from '../../ingest/record-batch';
import { parseBatch } from '../../ingest/routes/ingest/parse-messages';
import { createAdStatsSchedules, type AdStatsSchedules } from '../../temporal/ad-stats-schedules';
import { createConversionStarter, type ConversionStarter } from '../../temporal/conversion-starter';
import { createSignalboxWorker, WORKFLOWS_PATH } from '../../worker/create-worker';
import { createTestDatabase, type TestDatabase } from './database';

export const TEST_SECRET_KEY = '5e'.repeat(32);

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** Bundling takes a second or two: once per test file. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } });
  return bundle;
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

/**
 * The whole conversion path on real services: a fresh PostgreSQL database, the shared Temporal dev server with a
 * worker on its own task queue, and the fake TikTok over HTTP. Ingest is driven through the batch recorder and the
 * starter exactly as the ingest API uses them.
 */
export class TestPipeline {
  private constructor(
    readonly database: TestDatabase,
    readonly repos: Repositories,
    readonly recordBatch: BatchRecorder,
    readonly fake: FakeTikTok,
    readonly client: Client,
    readonly taskQueue: string,
    readonly startConversions: ConversionStarter,
    /** Statistics schedules on this pipeline's task queue (and the worker's `adStatsSchedules` dependency). */
    readonly adStatsSchedules: AdStatsSchedules,
    private readonly worker: Worker,
    private readonly running: Promise<void>,
    private readonly connections: { close(): Promise<void> }[],
  ) {}

  static async start(): Promise<TestPipeline> {
    quietWorkerLogs();
    const address = process.env.TEMPORAL_TEST_ADDRESS;
    if (address === undefined) throw new Error('TEMPORAL_TEST_ADDRESS is not set: run through jest --selectProjects integration');
    const database = await createTestDatabase();
    const repos = createRepositories(database.db, createSecretBox(TEST_SECRET_KEY));
    const fake = await startFakeTikTok();
    const clientConnection = await Connection.connect({ address });
    const client = new Client({ connection: clientConnection });
    const taskQueue = `test-${randomBytes(6).toString('hex')}`;
    const startConversions = createConversionStarter(client, taskQueue, repos.conversions);
    const adStatsSchedules = createAdStatsSchedules(client, { taskQueue });
    const workerConnection = await NativeConnection.connect({ address });
    const worker = await createSignalboxWorker({
      connection: workerConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      shutdownGraceTime: '1 second',
      deps: { repos, tiktok: createTikTokClient({ baseUrl: fake.url, timeoutMs: 2_000 }), startConversions, adStatsSchedules },
    });
    const running = worker.run();
    return new TestPipeline(database, repos, createBatchRecorder(database.db, repos), fake, client, taskQueue, startConversions, adStatsSchedules, worker, running, [
      clientConnection,
      workerConnection,
    ]);
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

  /** What `POST /v1/batch` does: validate, commit, then start the new conversions' workflows. */
  async ingest(workspace: Workspace, messages: unknown[], options: { start?: boolean; fromAppKey?: boolean } = {}): Promise<ConversionRow[]> {
    const receivedAt = new Date();
    const result = await this.recordBatch(workspace, parseBatch({ batch: messages }, receivedAt).messages, { receivedAt, fromAppKey: options.fromAppKey });
    if (options.start ?? true) await this.startConversions(result.conversions);
    return Promise.all(result.conversions.map(async (c) => (await this.repos.conversions.find(c.id)) as ConversionRow));
  }

  /** Waits for the conversion's workflow to finish and returns the final row. */
  async settled(conversion: Pick<ConversionRow, 'id' | 'workflow_id'>): Promise<ConversionRow> {
    await this.client.workflow.getHandle(conversion.workflow_id).result();
    return (await this.repos.conversions.find(conversion.id)) as ConversionRow;
  }

  async close(): Promise<void> {
    this.worker.shutdown();
    await this.running;
    for (const connection of this.connections) await connection.close();
    await this.fake.close();
    await this.database.destroy();
  }
}
