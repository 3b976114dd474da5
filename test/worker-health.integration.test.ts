import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { createDatabase } from '../db/knex';
import { BREAKING_MIGRATIONS_TABLE, migrationSource } from '../db/migration-source';
import type { ConversionRow } from '../db/types';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { WORKER_RUNNING } from '../worker/running';
import { compileServerCode } from './helpers/built-code';
import { deleteSchedulesOf } from './helpers/built-services';
import { closeAll } from './helpers/close-all';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TEST_CONSOLE_URL, TEST_SECRET_KEY, temporalTestAddress, TestPipeline } from './helpers/pipeline';
import { startPrivatePostgres, type PrivatePostgres } from './helpers/private-postgres';

/**
 * The built worker (`node dist/worker/main.js`) with WORKER_HEALTH_PORT, on a PostgreSQL cluster of this file's own
 * (stopped in the last test), the shared Temporal dev server and the fake TikTok.
 */
jest.setTimeout(240_000);

let code: string;
let postgres: PrivatePostgres;
let db: Knex;
let pipeline: TestPipeline;
let healthPort: ReservedPort;
let worker: ChildProcess;
const lines: string[] = [];

/** Migrated by the built code, as a release does: readiness compares the database with the built migrations. */
async function migrateAsBuilt(): Promise<void> {
  await db.migrate.latest({ migrationSource: migrationSource(path.join(code, 'db', 'migrations'), '.js'), tableName: 'knex_migrations' });
}

async function waitForLine(pattern: RegExp, timeoutMs = 180_000): Promise<string> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    const line = lines.find((candidate) => pattern.test(candidate));
    if (line !== undefined) return line;
    if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}:\n${lines.join('\n')}`);
  }
  throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`);
}

function get(route: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${healthPort.port}${route}`, { signal: AbortSignal.timeout(10_000) });
}

async function readiness(): Promise<{ status: number; body: { status: string; checks: Record<string, string> } }> {
  const response = await get('/readyz');
  return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
}

/** Polls until `/readyz` answers `status` (the checks follow PostgreSQL's state within a probe). */
async function readinessBecomes(status: number): Promise<Awaited<ReturnType<typeof readiness>>> {
  for (let round = 0; ; round += 1) {
    const answer = await readiness();
    if (answer.status === status || round === 100) return answer;
    await sleep(200);
  }
}

/** The sample's value, or undefined when the series does not exist. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function stopWorker(): Promise<void> {
  if (worker === undefined || worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  const started = await Promise.allSettled([
    compileServerCode('worker-health-').then((built) => (code = built)),
    startPrivatePostgres().then((running) => (postgres = running)),
    reservePort().then((reserved) => (healthPort = reserved)),
  ]);
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  db = createDatabase({ url: postgres.url });
  await migrateAsBuilt();
  pipeline = await TestPipeline.start({ worker: false, database: { db, url: postgres.url, destroy: async () => undefined } });
  worker = spawn(process.execPath, [path.join(code, 'worker', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: postgres.url,
      TEMPORAL_ADDRESS: temporalTestAddress(),
      TEMPORAL_TASK_QUEUE: pipeline.taskQueue,
      SECRET_KEY: TEST_SECRET_KEY,
      TIKTOK_API_URL: pipeline.fake.url,
      PUBLIC_URL: TEST_CONSOLE_URL,
      WORKER_HEALTH_PORT: String(healthPort.port),
      WORKER_HEALTH_HOST: '127.0.0.1',
      READINESS_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [worker.stdout, worker.stderr]) if (stream) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  await waitForLine(new RegExp(`"msg":"${WORKER_RUNNING}"`));
});

afterAll(() =>
  closeAll(
    stopWorker,
    () => pipeline && deleteSchedulesOf(pipeline.client, pipeline.taskQueue),
    () => pipeline?.close(),
    () => db?.destroy(),
    () => postgres?.stop(),
    () => healthPort?.release(),
    () => code && rmSync(code, { recursive: true, force: true }),
  ),
);

describe("the worker's health server", () => {
  it('answers /healthz, and /readyz once the worker runs with Temporal and PostgreSQL answering', async () => {
    const health = await get('/healthz');
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await readinessBecomes(200)).toEqual({ status: 200, body: { status: 'ready', checks: { worker: 'ok', temporal: 'ok', database: 'ok', migrations: 'ok' } } });
  });

  it('counts groups, conversions and TikTok answers in /metrics, and logs one line for the group', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [landing('clicked', ttclid(), daysAgo(1))]);
    const conversions = await pipeline.ingest(ws, [
      track('purchase', { anonymousId: 'clicked' }, { order_id: 'health-1', total: 5, currency: 'USD' }),
      track('purchase', { anonymousId: 'never-clicked' }, { order_id: 'health-2', total: 5, currency: 'USD' }),
    ]);
    const settled = await Promise.all(conversions.map((conversion: ConversionRow) => pipeline.settled(conversion)));
    expect(settled.map((row) => [row.status, row.reason])).toEqual([
      ['delivered', null],
      ['skipped', 'no_ttclid'],
    ]);

    const logged = JSON.parse(await waitForLine(/"msg":"conversion group processed"/)) as Record<string, unknown>;
    expect(logged).toMatchObject({
      level: 30,
      workspaceId: ws.id,
      outcome: 'sent',
      size: 2,
      delivered: 1,
      skipped: { no_ttclid: 1 },
      failed: {},
      retrying: 0,
      requests: 1,
      durationMs: expect.any(Number),
      worker: `${worker.pid}@${hostname()}`,
    });

    const metrics = await (await get('/metrics')).text();
    expect(sample(metrics, 'signalbox_groups_processed_total{outcome="sent"}')).toBe(1);
    expect(sample(metrics, 'signalbox_conversion_outcomes_total{status="delivered",reason="none"}')).toBe(1);
    expect(sample(metrics, 'signalbox_conversion_outcomes_total{status="skipped",reason="no_ttclid"}')).toBe(1);
    expect(sample(metrics, 'signalbox_conversion_pipeline_lag_seconds_count{status="delivered"}')).toBe(1);
    expect(sample(metrics, 'signalbox_tiktok_responses_total{endpoint="/open_api/v1.3/event/track/",code="0",outcome="success"}')).toBe(1);
    expect(sample(metrics, 'signalbox_tiktok_request_duration_seconds_count{endpoint="/open_api/v1.3/event/track/"}')).toBe(1);
    expect(metrics).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('answers /readyz 503 naming a migration not run yet', async () => {
    const last = (await db('knex_migrations').orderBy('id', 'desc').first('id', 'name')) as { id: number; name: string };
    await db('knex_migrations').where({ id: last.id }).delete();
    try {
      expect(await readinessBecomes(503)).toEqual({
        status: 503,
        body: { status: 'not_ready', checks: { worker: 'ok', temporal: 'ok', database: 'ok', migrations: `not run yet: ${last.name}` } },
      });
    } finally {
      await db('knex_migrations').insert({ name: last.name, batch: 1, migration_time: new Date() });
    }
    expect((await readinessBecomes(200)).status).toBe(200);
  });

  it("answers /readyz 503 naming a newer build's migration that breaks this one, and 200 beside one that only adds", async () => {
    const adds = '20991231000000_adds_a_table';
    const breaks = '20991231000100_replaces_a_table';
    await db('knex_migrations').insert([adds, breaks].map((name) => ({ name: `${name}.js`, batch: 99, migration_time: new Date() })));
    try {
      await db(BREAKING_MIGRATIONS_TABLE).insert({ name: breaks });
      expect(await readinessBecomes(503)).toEqual({
        status: 503,
        body: {
          status: 'not_ready',
          checks: { worker: 'ok', temporal: 'ok', database: 'ok', migrations: `a newer build ran ${breaks}, which this build cannot serve: replace this worker with the new build` },
        },
      });
      await db(BREAKING_MIGRATIONS_TABLE).where({ name: breaks }).delete();
      expect((await readinessBecomes(200)).status).toBe(200);
    } finally {
      await db('knex_migrations').whereIn('name', [`${adds}.js`, `${breaks}.js`]).delete();
      await db(BREAKING_MIGRATIONS_TABLE).where({ name: breaks }).delete();
    }
  });

  it('answers /readyz 503 naming PostgreSQL while it is down, and 200 again once it is back', async () => {
    await postgres.kill();
    expect(await readinessBecomes(503)).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { worker: 'ok', temporal: 'ok', database: 'PostgreSQL is not answering', migrations: 'not checked: PostgreSQL is not answering' } },
    });
    // The error itself goes to the log only.
    expect(JSON.parse(await waitForLine(/"check":"database".*"msg":"readiness check failed"/, 10_000))).toMatchObject({ level: 40, err: { code: 'ECONNREFUSED' } });
    expect((await get('/healthz')).status).toBe(200);

    await postgres.restart();
    expect((await readinessBecomes(200)).status).toBe(200);
  });
});
