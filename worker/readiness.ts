import type { SchemaAhead } from '../db/migration-status';

export interface WorkerReadinessOptions {
  /** Each check's deadline. */
  timeoutMs: number;
  /** The worker's state (`RUNNING` once it polls its task queue); undefined while it starts. */
  workerState(): string | undefined;
  /** Resolves when Temporal's frontend answers; rejects otherwise. */
  temporal(): Promise<void>;
  /** Resolves when PostgreSQL answers (db/readiness.ts); rejects otherwise. */
  database(): Promise<void>;
  /** Names of the migrations not yet run (db/migration-status.ts); not checked without it. */
  pendingMigrations?: () => Promise<string[]>;
  /** What a newer build migrated beyond this one (db/migration-status.ts); asked once no migration is pending. */
  schemaAhead?: () => Promise<SchemaAhead>;
  /** Told why a check failed: its error is logged, not shown on the unauthenticated endpoint. */
  onFailure(check: string, error: unknown): void;
}

/** `ok`, or what is wrong, per check. */
export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
}

class CheckFailed extends Error {}

function withinDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

type Answer = [check: string, answer: string];

/**
 * Ready while the worker runs its pollers, Temporal and PostgreSQL answer within the deadline, no migration is
 * pending and no newer build ran one that breaks this one (the worker still polls: its readiness tells the
 * orchestrator). Concurrent probes share one evaluation: unauthenticated callers cannot multiply the queries.
 */
export function createWorkerReadiness(options: WorkerReadinessOptions): () => Promise<ReadinessReport> {
  const { timeoutMs, pendingMigrations } = options;
  /** `run` resolves with what is wrong, or nothing. */
  const check = async (name: string, what: string, run: () => Promise<string | void>): Promise<Answer> => {
    try {
      return [name, (await withinDeadline(run(), timeoutMs, what)) ?? 'ok'];
    } catch (error) {
      options.onFailure(name, error);
      return [name, error instanceof CheckFailed ? error.message : `${what} is not answering`];
    }
  };

  async function storage(): Promise<Answer[]> {
    const database = await check('database', 'PostgreSQL', options.database);
    if (pendingMigrations === undefined) return [database];
    if (database[1] !== 'ok') return [database, ['migrations', 'not checked: PostgreSQL is not answering']];
    const migrations = await check('migrations', 'PostgreSQL', async () => {
      const pending = await pendingMigrations();
      if (pending.length > 0) return `not run yet: ${pending.join(', ')}`;
      const breaking = (await options.schemaAhead?.())?.breaking ?? [];
      if (breaking.length > 0) return `a newer build ran ${breaking.join(', ')}, which this build cannot serve: replace this worker with the new build`;
      return undefined;
    });
    return [database, migrations];
  }

  async function evaluate(): Promise<ReadinessReport> {
    const state = options.workerState();
    const worker: Answer = ['worker', state === 'RUNNING' ? 'ok' : `the worker is ${state?.toLowerCase() ?? 'starting'}`];
    const [temporal, stored] = await Promise.all([check('temporal', 'Temporal', options.temporal), storage()]);
    const checks = Object.fromEntries([worker, temporal, ...stored]);
    return { ready: Object.values(checks).every((answer) => answer === 'ok'), checks };
  }

  let inFlight: Promise<ReadinessReport> | undefined;
  return () => {
    inFlight ??= evaluate().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
