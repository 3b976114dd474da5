import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities/deps';

export interface SignalboxWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** How Temporal's history and the worker's log lines name this worker. */
  identity?: string;
  deps: ActivityDeps;
  /** A prebuilt bundle (tests bundle once); production bundles from `workflows/` at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** When activities still running after a shutdown began are cancelled (worker/shutdown.ts). */
  shutdownGraceTime?: WorkerOptions['shutdownGraceTime'];
}

/** Resolved when needed: a worker bundled elsewhere (a test's worker process) passes its workflow bundle instead. */
export function workflowsPath(): string {
  return require.resolve('../workflows');
}

export function createSignalboxWorker(options: SignalboxWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...(options.identity && { identity: options.identity }),
    activities: createActivities(options.deps),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: workflowsPath() }),
    shutdownGraceTime: options.shutdownGraceTime ?? '15 seconds',
  });
}
