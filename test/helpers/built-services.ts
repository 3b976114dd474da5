import path from 'node:path';
import type { Client } from '@temporalio/client';
import { startNodeChild, stopChild, waitForHttp, type Child } from '../../devstack/children';
import { ALERTS_SCHEDULE_ID, CONSOLE_ROLLUP_SCHEDULE_ID, OUTBOX_SWEEPER_SCHEDULE_ID, RETENTION_SCHEDULE_ID } from '../../temporal/schedules';
import { WORKER_RUNNING } from '../../worker/running';
import { TEST_ADMIN_TOKEN, TEST_PUBLIC_URL, TEST_SECRET_KEY } from './test-app';

/** The services' environment: where PostgreSQL, Temporal and TikTok are, and where people reach the console (the worker's alert links). */
export function serviceEnv(parts: { databaseUrl: string; temporalAddress: string; tiktokUrl: string }): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: parts.databaseUrl, TEMPORAL_ADDRESS: parts.temporalAddress, SECRET_KEY: TEST_SECRET_KEY, TIKTOK_API_URL: parts.tiktokUrl, PUBLIC_URL: TEST_PUBLIC_URL };
}

/** The worker of the build in `code` (compileServerCode) as `node worker/main.js`; it bundles the workflow code before it runs. */
export function spawnBuiltWorker(code: string, env: NodeJS.ProcessEnv, name = 'worker'): Child {
  return startNodeChild(name, path.join(code, 'worker', 'main.js'), { ...env, LOG_LEVEL: 'warn' });
}

/** Resolves once the worker polls its task queue. */
export function workerRunning(worker: Child): Promise<unknown> {
  return worker.waitForLine(new RegExp(`"msg":"${WORKER_RUNNING}"`), 180_000);
}

/**
 * The ingest server of the build as `node api/server.js` on 127.0.0.1:`port`, once it answers. At `warn` it also
 * logs each request refused while PostgreSQL is down and each wake-up Temporal missed.
 */
export async function startBuiltIngest(code: string, env: NodeJS.ProcessEnv, port: number, options: { logLevel?: 'error' | 'warn'; name?: string } = {}): Promise<Child> {
  const { logLevel = 'error', name = 'ingest' } = options;
  const child = startNodeChild(name, path.join(code, 'api', 'server.js'), { ...env, LOG_LEVEL: logLevel, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN: TEST_ADMIN_TOKEN });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, child).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return child;
}

/**
 * A built worker creates the recurring schedules on the shared Temporal server, on its own task queue: for afterAll,
 * deletes those that point at `taskQueue`, so later test files create theirs.
 */
export async function deleteSchedulesOf(client: Client, taskQueue: string): Promise<void> {
  for (const scheduleId of [OUTBOX_SWEEPER_SCHEDULE_ID, RETENTION_SCHEDULE_ID, CONSOLE_ROLLUP_SCHEDULE_ID, ALERTS_SCHEDULE_ID]) {
    const schedule = client.schedule.getHandle(scheduleId);
    const description = await schedule.describe().catch(() => undefined);
    if (description?.action.type === 'startWorkflow' && description.action.taskQueue === taskQueue) await schedule.delete();
  }
}
