import type { Worker, WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';

/**
 * Activities still running after SIGTERM (statistics pulls, alerts, retention) are told to stop 5 s before the
 * worker's bound; at the bound the process exits whatever is still running (createStopSwitch).
 */
export function activityCancelTime(graceMs: number): WorkerOptions['shutdownGraceTime'] {
  return Math.max(0, graceMs - 5_000);
}

export interface StopSwitch {
  /** Aborted at the first SIGTERM or SIGINT: the group steps claim nothing more and hand back what they hold. */
  signal: AbortSignal;
  /** The worker to drain once it runs; a signal before then ends the process at once (start-up holds no work). */
  attach(worker: Worker): void;
  /** Since the signal, in milliseconds; undefined before it. */
  stoppingForMs(): number | undefined;
}

/**
 * SIGTERM or SIGINT stops the worker within `graceMs`, whatever a step is doing: no group is claimed from then on,
 * the group in hand finishes its TikTok request in flight and gives the rest back (activities/group), Temporal
 * stops polling and the worker drains; should that take longer (a step stuck on PostgreSQL, an activity ignoring its
 * cancellation), the process exits at `graceMs` and another worker takes the workflow over once its task times out.
 */
export function createStopSwitch({ graceMs, logger, exit = (code: number) => process.exit(code) }: { graceMs: number; logger: Logger; exit?: (code: number) => void }): StopSwitch {
  const controller = new AbortController();
  let worker: Worker | undefined;
  let signalledAt: number | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    controller.abort();
    signalledAt = Date.now();
    if (worker?.getState() !== 'RUNNING') {
      logger.info({ signal }, 'stopping before the worker runs');
      exit(0);
      return;
    }
    logger.info({ signal, graceMs }, 'stopping: no more groups are claimed; the group in hand finishes its request and is handed back');
    setTimeout(() => {
      logger.error({ graceMs, state: worker?.getState() }, 'still running at WORKER_SHUTDOWN_GRACE_MS: exiting; another worker takes its workflows over');
      exit(1);
    }, graceMs).unref();
    worker.shutdown();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  return {
    signal: controller.signal,
    attach(running) {
      worker = running;
    },
    stoppingForMs: () => (signalledAt === undefined ? undefined : Date.now() - signalledAt),
  };
}
