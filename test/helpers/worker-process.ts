/**
 * A Signalbox worker in a process of its own, for tests that kill it with SIGKILL at an exact point: with
 * `PAUSE_AT=<point>` it stops (forever) the first time delivery reaches that point and prints `PAUSED AT <point>`.
 * Bundled and started by `spawnWorker` (worker-child.ts); configured through the environment.
 */
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { DEFAULT_PIPELINE_SETTINGS } from '../../activities/group/settings';
import type { DeliveryFaultPoint } from '../../activities/deps';
import { createTikTokClient } from '../../adplatform/tiktok';
import { createDatabase } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { createAdStatsSchedules } from '../../temporal/ad-stats-schedules';
import { createPipelineWaker } from '../../temporal/pipeline-waker';
import { createSignalboxWorker } from '../../worker/create-worker';
import { createWorkerMetrics } from '../../worker/metrics';
import { createMailer } from '../../notify/mailer';
import { createWebhookPoster } from '../../notify/webhook';

async function main(): Promise<void> {
  const env = process.env as Record<string, string>;
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const db = createDatabase({ url: env.DATABASE_URL });
  const repos = createRepositories(db, createSecretBox(env.SECRET_KEY));
  const client = new Client({ connection: await Connection.connect({ address: env.TEMPORAL_ADDRESS }) });
  const pauseAt = env.PAUSE_AT as DeliveryFaultPoint | undefined;
  const metrics = createWorkerMetrics();
  const worker = await createSignalboxWorker({
    connection: await NativeConnection.connect({ address: env.TEMPORAL_ADDRESS }),
    namespace: 'default',
    taskQueue: env.TASK_QUEUE,
    workflowBundle: { codePath: env.WORKFLOW_BUNDLE },
    deps: {
      db,
      repos,
      tiktok: createTikTokClient({ baseUrl: env.TIKTOK_API_URL, timeoutMs: 2_000 }),
      pipelines: createPipelineWaker(client, env.TASK_QUEUE, repos.conversionPipelines),
      adStatsSchedules: createAdStatsSchedules(client, { taskQueue: env.TASK_QUEUE }),
      pipeline: DEFAULT_PIPELINE_SETTINGS,
      metrics: metrics.pipeline,
      retentionMetrics: metrics.retention,
      log: { info: () => undefined },
      notify: { mailer: createMailer({ smtpUrl: undefined, from: 'signalbox@test.example' }), postWebhook: createWebhookPoster({ internalAddresses: 'allow' }) },
      publicUrl: 'https://signalbox.test.example',
      reached: async (point) => {
        if (point !== pauseAt) return;
        console.log(`PAUSED AT ${point}`);
        await new Promise(() => undefined);
      },
    },
  });
  console.log('WORKER RUNNING');
  await worker.run();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
