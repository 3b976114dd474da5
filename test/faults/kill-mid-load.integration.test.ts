import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories, type Repositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { stopChild, type Child } from '../../devstack/children';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { TEST_SECRET_KEY } from '../helpers/test-app';
import { compileServerCode } from '../helpers/built-code';
import { serviceEnv, spawnBuiltWorker, startBuiltIngest, workerRunning } from '../helpers/built-services';
import { createPurchaseShop, expectEachOrderOnceAtTikTok as expectOnceAtTikTok } from '../helpers/delivered-once';
import { closeAll } from '../helpers/close-all';
import { order, sendUntilAnswered, startLoad, type Order } from '../helpers/conversion-load';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres';
import { startPrivateTemporal, type PrivateTemporal } from '../helpers/private-temporal';
import { killHard } from '../helpers/worker-child';

/**
 * kill -9 of each process while purchases arrive (issues 11/12): the built ingest server and worker, on a PostgreSQL
 * cluster and a Temporal dev server of this file's own, deliver to the fake TikTok. A load generator posts purchases
 * through the HTTP API and, as a client library does, sends a request again (same messages) until it is acknowledged.
 * After each kill and restart: every acknowledged event is stored once, every purchase is one conversion that TikTok
 * counted once by its event_id, nothing stays pending, and the processes that were not killed are still running.
 */
const ORDERS_PER_SECOND = 25;
// Each test kills, restarts and waits for recovery, with webpack bundling the workflow code at every worker start.
jest.setTimeout(180_000);

let code: string;
let postgres: PrivatePostgres;
let temporal: PrivateTemporal;
let fake: FakeTikTok;
let db: Knex;
let repos: Repositories;
let temporalClient: Client;
let ingestUrl: string;
/** Held for the whole file: every restart of ingest comes back on the address the load keeps sending to. */
let ingestPort: ReservedPort;
let ingest: Child;
let worker: Child;

function env(): NodeJS.ProcessEnv {
  return serviceEnv({ databaseUrl: postgres.url, temporalAddress: temporal.address, tiktokUrl: fake.url });
}

const spawnWorker = () => spawnBuiltWorker(code, env());
const startIngest = (logLevel: 'error' | 'warn' = 'error') => startBuiltIngest(code, env(), ingestPort.port, { logLevel });
const shop = (name: string) => createPurchaseShop(repos, name);
const expectEachOrderOnceAtTikTok = (workspaceId: string, orders: readonly Order[]) =>
  expectOnceAtTikTok({ db, fake, temporal: temporalClient }, workspaceId, orders);

/** Orders at a steady rate; `fault` runs meanwhile (a kill, a pause, a restart) and the load goes on a while after it. */
async function underLoad(key: string, prefix: string, fault: () => Promise<void>): Promise<Order[]> {
  const load = startLoad(ingestUrl, key, prefix, ORDERS_PER_SECOND);
  try {
    await sleep(2_000);
    await fault();
    await sleep(2_000);
  } catch (error) {
    load.abandon(); // the orders still being sent would keep jest alive after the test failed
    throw error;
  }
  return load.stop();
}

beforeAll(async () => {
  // Each one settled and assigned, so that afterAll stops those that started when another did not.
  const started = await Promise.allSettled([
    compileServerCode('kill-mid-load-').then((built) => (code = built)),
    startPrivatePostgres().then((running) => (postgres = running)),
    startPrivateTemporal().then((running) => (temporal = running)),
    startFakeTikTok().then((running) => (fake = running)),
    reservePort().then((reserved) => (ingestPort = reserved)),
  ]);
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  ingestUrl = `http://127.0.0.1:${ingestPort.port}`;
  db = createDatabase({ url: postgres.url });
  await migrateToLatest(db);
  repos = createRepositories(db, createSecretBox(TEST_SECRET_KEY));
  temporalClient = new Client({ connection: await Connection.connect({ address: temporal.address }) });
  worker = spawnWorker();
  await workerRunning(worker);
  ingest = await startIngest();
}, 300_000);

afterAll(() =>
  closeAll(
    () => ingest && stopChild(ingest),
    () => worker && stopChild(worker),
    () => temporalClient?.connection.close(),
    () => fake?.close(),
    () => db?.destroy(),
    () => temporal?.stop(),
    () => postgres?.stop(),
    () => ingestPort?.release(),
    () => code && rmSync(code, { recursive: true, force: true }),
  ),
);

describe('kill -9 of one process while purchases arrive, then a restart', () => {
  it('the worker: the next one finishes what it was doing; TikTok counts each purchase once', async () => {
    const { workspaceId, key } = await shop('Worker crash shop');
    const orders = await underLoad(key, 'worker-crash', async () => {
      await killHard(worker);
      worker = spawnWorker();
      await workerRunning(worker);
    });
    await expectEachOrderOnceAtTikTok(workspaceId, orders);
  });

  it('ingest: requests cut off are sent again and stored once; each purchase reaches TikTok once', async () => {
    const { workspaceId, key } = await shop('Ingest crash shop');
    const orders = await underLoad(key, 'ingest-crash', async () => {
      await killHard(ingest);
      await sleep(1_000);
      ingest = await startIngest();
    });
    expect(orders.some((sent) => sent.attempts > 1)).toBe(true);
    await expectEachOrderOnceAtTikTok(workspaceId, orders);
    expect(worker.process.exitCode).toBeNull();
  });

  it('Temporal: events are still accepted, and the conversions it missed are delivered once it is back', async () => {
    const { workspaceId, key } = await shop('Temporal crash shop');
    const orders = await underLoad(key, 'temporal-crash', async () => {
      await temporal.kill();
      await sleep(2_000);
      await temporal.restart();
    });
    await expectEachOrderOnceAtTikTok(workspaceId, orders);
    expect([ingest.process.exitCode, worker.process.exitCode]).toEqual([null, null]);
  });

  it('PostgreSQL: requests refused meanwhile are sent again; nothing acknowledged is lost; TikTok counts each purchase once', async () => {
    const { workspaceId, key } = await shop('PostgreSQL crash shop');
    const orders = await underLoad(key, 'postgres-crash', async () => {
      await postgres.kill();
      await sleep(2_000);
      await postgres.restart();
    });
    expect(orders.some((sent) => sent.attempts > 1)).toBe(true);
    await expectEachOrderOnceAtTikTok(workspaceId, orders);
    expect([ingest.process.exitCode, worker.process.exitCode]).toEqual([null, null]);
  });
});

describe('processes started while another is down wait for it', () => {
  it('a worker and ingest started while Temporal is down, for longer than ingest retries a wake-up: the conversion waits in the outbox, and is delivered once Temporal is back', async () => {
    // A new shop: its workflow has never run, so ingest must wake it.
    const { workspaceId, key } = await shop('Temporal outage shop');
    await killHard(worker);
    await killHard(ingest);
    await temporal.kill();

    worker = spawnWorker();
    await worker.waitForLine(/"msg":"start-up: connecting to Temporal failed; retrying"/);
    ingest = await startIngest('warn'); // to log the wake-up it gave up on
    const notWoken = ingest.waitForLine(/"msg":"conversion workflows not woken; the sweeper will wake them"/);
    const sent = order('temporal-outage');
    await sendUntilAnswered(ingestUrl, key, sent);
    await notWoken;

    await temporal.restart();
    await workerRunning(worker);
    await expectEachOrderOnceAtTikTok(workspaceId, [sent]);
  });

  it('a worker and ingest started while PostgreSQL is down: ingest is not ready meanwhile; once PostgreSQL is back a purchase is delivered', async () => {
    const { workspaceId, key } = await shop('Cold start shop');
    await killHard(worker);
    await killHard(ingest);
    await postgres.kill();

    worker = spawnWorker();
    const waiting = worker.waitForLine(/"msg":"start-up: .*database failed; retrying"/);
    waiting.catch(() => undefined); // awaited below; a worker that exits must not be an unhandled rejection meanwhile
    ingest = await startIngest();
    expect((await fetch(`${ingestUrl}/readyz`)).status).toBe(503);
    await waiting;

    const sent = order('cold-start');
    const sending = sendUntilAnswered(ingestUrl, key, sent);
    await postgres.restart();
    await workerRunning(worker);
    await sending;
    expect(sent.attempts).toBeGreaterThan(1);
    expect((await fetch(`${ingestUrl}/readyz`)).status).toBe(200);
    await expectEachOrderOnceAtTikTok(workspaceId, [sent]);
  });
});
