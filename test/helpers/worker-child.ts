import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { startNodeChild, type Child } from '../../devstack/children';
import type { DeliveryFaultPoint } from '../../activities/deps';
import { TEST_SECRET_KEY, temporalTestAddress, workflowBundle, type TestPipeline } from './pipeline';

const OUT_DIR = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'signalbox-tests');

let built: Promise<{ script: string; bundle: string }> | undefined;
/** worker-process.ts as one script (its packages stay in node_modules) and the workflow bundle as a file, once per test file. */
function buildOnce(): Promise<{ script: string; bundle: string }> {
  built ??= (async () => {
    mkdirSync(OUT_DIR, { recursive: true });
    const id = randomBytes(4).toString('hex');
    const script = path.join(OUT_DIR, `worker-process-${id}.js`);
    await build({ entryPoints: [path.join(__dirname, 'worker-process.ts')], bundle: true, platform: 'node', target: 'node20', packages: 'external', outfile: script, logLevel: 'error' });
    const bundle = path.join(OUT_DIR, `workflow-bundle-${id}.js`);
    writeFileSync(bundle, (await workflowBundle()).code);
    return { script, bundle };
  })();
  return built;
}

/** A worker process on the pipeline's task queue that stops for good when delivery reaches `pauseAt`. */
export async function spawnWorker(pipeline: TestPipeline, pauseAt: DeliveryFaultPoint): Promise<Child> {
  const { script, bundle } = await buildOnce();
  const child = startNodeChild('worker', script, {
    ...process.env,
    DATABASE_URL: pipeline.database.url,
    SECRET_KEY: TEST_SECRET_KEY,
    TEMPORAL_ADDRESS: temporalTestAddress(),
    TASK_QUEUE: pipeline.taskQueue,
    TIKTOK_API_URL: pipeline.fake.url,
    WORKFLOW_BUNDLE: bundle,
    PAUSE_AT: pauseAt,
  });
  await child.waitForLine(/^WORKER RUNNING$/);
  return child;
}

/** SIGKILL: no shutdown, no chance to finish the workflow task. */
export async function killHard(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}
