import { createWorkerReadiness, type WorkerReadinessOptions } from './readiness';

const never = () => new Promise<never>(() => undefined);

function readiness(overrides: Partial<WorkerReadinessOptions> = {}) {
  const failures: string[] = [];
  const check = createWorkerReadiness({
    timeoutMs: 50,
    workerState: () => 'RUNNING',
    temporal: async () => undefined,
    database: async () => undefined,
    pendingMigrations: async () => [],
    onFailure: (name) => failures.push(name),
    ...overrides,
  });
  return { check, failures };
}

describe("the worker's readiness", () => {
  it('is ready when the worker runs, Temporal and PostgreSQL answer and no migration is pending', async () => {
    expect(await readiness().check()).toEqual({ ready: true, checks: { worker: 'ok', temporal: 'ok', database: 'ok', migrations: 'ok' } });
  });

  it('names each check that fails, logs its error and keeps the error text off the answer', async () => {
    const { check, failures } = readiness({
      workerState: () => 'DRAINING',
      temporal: () => Promise.reject(new Error('14 UNAVAILABLE: secret-host:7233')),
      database: never,
    });
    expect(await check()).toEqual({
      ready: false,
      checks: {
        worker: 'the worker is draining',
        temporal: 'Temporal is not answering',
        database: 'PostgreSQL did not answer within 50 ms',
        migrations: 'not checked: PostgreSQL is not answering',
      },
    });
    expect(failures.sort()).toEqual(['database', 'temporal']);
  });

  it('is not ready while the worker starts or migrations are pending, which it names', async () => {
    const { check } = readiness({ workerState: () => undefined, pendingMigrations: async () => ['20261126120000_a.js', '20261126120100_b.js'] });
    expect(await check()).toMatchObject({
      ready: false,
      checks: { worker: 'the worker is starting', migrations: 'not run yet: 20261126120000_a.js, 20261126120100_b.js' },
    });
  });

  it("is not ready once a newer build ran a migration that breaks this one, and ready beside a newer build's other migrations", async () => {
    const newer = ['20991231000000_added_a_table', '20991231000100_dropped_a_column'];
    const breaking = readiness({ schemaAhead: async () => ({ newer, breaking: ['20991231000100_dropped_a_column'] }) });
    expect(await breaking.check()).toEqual({
      ready: false,
      checks: {
        worker: 'ok',
        temporal: 'ok',
        database: 'ok',
        migrations: 'a newer build ran 20991231000100_dropped_a_column, which this build cannot serve: replace this worker with the new build',
      },
    });
    expect((await readiness({ schemaAhead: async () => ({ newer, breaking: [] }) }).check()).ready).toBe(true);
  });

  it('checks no migrations when it is given no way to', async () => {
    expect((await readiness({ pendingMigrations: undefined }).check()).checks).toEqual({ worker: 'ok', temporal: 'ok', database: 'ok' });
  });

  it('answers concurrent probes with one evaluation', async () => {
    let asked = 0;
    const { check } = readiness({
      database: async () => {
        asked += 1;
      },
    });
    const [first, second] = await Promise.all([check(), check()]);
    expect(second).toBe(first);
    expect(asked).toBe(1);
    await check();
    expect(asked).toBe(2);
  });
});
