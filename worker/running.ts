/** The log message the worker process writes once it polls its task queue; the dev stack waits for it. */
export const WORKER_RUNNING = 'worker running';
