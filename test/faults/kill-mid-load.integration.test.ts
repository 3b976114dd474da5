import { rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE, startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories, type Repositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { startNodeChild, stopChild, waitForHttp, type Child } from '../../devstack/children';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../helpers/test-app';
import { WORKER_RUNNING } from '../../worker/running';
import { OUTBOX_SWEEPER_SCHEDULE_ID } from '../../temporal/schedules';
import { compileServerCode } from '../helpers/built-code';
import { closeAll } from '../helpers/close-all';
import { order, sendUntilAnswered, startLoad, type Order } from '../helpers/conversion-load';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres';
import { startPrivateTemporal, type PrivateTemporal } from '../helpers/private-temporal';

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

function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: postgres.url, TEMPORAL_ADDRESS: temporal.address, SECRET_KEY: TEST_SECRET_KEY, TIKTOK_API_URL: fake.url, ...extra };
}

/** The worker as `node dist/worker/main.js`; it bundles the workflow code before it runs. */
function spawnWorker(): Child {
  return startNodeChild('worker', path.join(code, 'worker', 'main.js'), serviceEnv({ LOG_LEVEL: 'warn' }));
}

function running(child: Child): Promise<unknown> {
  return child.waitForLine(new RegExp(`"msg":"${WORKER_RUNNING}"`), 180_000);
}

/** At `warn` ingest also logs each request refused while PostgreSQL is down and each wake-up Temporal missed. */
async function startIngest(logLevel: 'error' | 'warn' = 'error'): Promise<Child> {
  const child = startNodeChild('ingest', path.join(code, 'api', 'server.js'), serviceEnv({ LOG_LEVEL: logLevel, HOST: '127.0.0.1', PORT: String(ingestPort.port), ADMIN_TOKEN: TEST_ADMIN_TOKEN }));
  await waitForHttp(`${ingestUrl}/healthz`, child).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return child;
}

async function kill9(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

/** A shop with a purchase rule, a TikTok pixel and an API key. */
async function shop(name: string): Promise<{ workspaceId: string; key: string }> {
  const workspace = await repos.workspaces.create(name);
  await repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  await repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  return { workspaceId: workspace.id, key: (await repos.apiKeys.create(workspace.id, 'backend')).key };
}

/**
 * Waits until no conversion of the workspace is pending. Conversions whose wake-up failed (Temporal down) wait for the
 * outbox sweeper, which its schedule runs every minute: triggering it every 5 s instead saves that wait.
 */
async function settled(workspaceId: string): Promise<void> {
  for (let round = 1; ; round += 1) {
    const [{ count }] = (await db('conversions').where({ workspace_id: workspaceId, status: 'pending' }).count({ count: '*' })) as [{ count: string }];
    if (Number(count) === 0) return;
    if (round > 600) throw new Error(`${count} conversions still pending`);
    if (round % 25 === 0) await temporalClient.schedule.getHandle(OUTBOX_SWEEPER_SCHEDULE_ID).trigger();
    await sleep(200);
  }
}

/** Every order acknowledged, stored once, made one conversion, delivered and counted once by TikTok. */
async function expectEachOrderOnceAtTikTok(workspaceId: string, orders: readonly Order[]): Promise<void> {
  expect(orders.filter((sent) => sent.answer !== 200).map(({ orderId, answer }) => ({ orderId, answer }))).toEqual([]);

  const stored = (await db('events').where({ workspace_id: workspaceId }).select('message_id')) as { message_id: string }[];
  expect(stored.map((row) => row.message_id).sort()).toEqual(orders.flatMap((sent) => sent.messageIds).sort());

  await settled(workspaceId);
  const conversions = (await db('conversions').where({ workspace_id: workspaceId }).select('message_id', 'event_id', 'status', 'reason')) as {
    message_id: string;
    event_id: string;
    status: string;
    reason: string | null;
  }[];
  expect(conversions.map((c) => c.message_id).sort()).toEqual(orders.map((sent) => sent.messageIds[1]).sort());
  expect(conversions.filter((c) => c.status !== 'delivered')).toEqual([]);

  const counted = new Map<string, number>();
  for (const event of (await fake.receivedEvents()).events) {
    if (!event.deduplicated && event.eventId !== undefined) counted.set(event.eventId, (counted.get(event.eventId) ?? 0) + 1);
  }
  const notOnce = conversions.filter((c) => counted.get(c.event_id) !== 1).map((c) => ({ eventId: c.event_id, counted: counted.get(c.event_id) ?? 0 }));
  expect(notOnce).toEqual([]);
}

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
  await running(worker);
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
      await kill9(worker);
      worker = spawnWorker();
      await running(worker);
    });
    await expectEachOrderOnceAtTikTok(workspaceId, orders);
  });

  it('ingest: requests cut off are sent again and stored once; each purchase reaches TikTok once', async () => {
    const { workspaceId, key } = await shop('Ingest crash shop');
    const orders = await underLoad(key, 'ingest-crash', async () => {
      await kill9(ingest);
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
    await kill9(worker);
    await kill9(ingest);
    await temporal.kill();

    worker = spawnWorker();
    await worker.waitForLine(/"msg":"start-up: connecting to Temporal failed; retrying"/);
    ingest = await startIngest('warn'); // to log the wake-up it gave up on
    const notWoken = ingest.waitForLine(/"msg":"conversion workflows not woken; the sweeper will wake them"/);
    const sent = order('temporal-outage');
    await sendUntilAnswered(ingestUrl, key, sent);
    await notWoken;

    await temporal.restart();
    await running(worker);
    await expectEachOrderOnceAtTikTok(workspaceId, [sent]);
  });

  it('a worker and ingest started while PostgreSQL is down: ingest is not ready meanwhile; once PostgreSQL is back a purchase is delivered', async () => {
    const { workspaceId, key } = await shop('Cold start shop');
    await kill9(worker);
    await kill9(ingest);
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
    await running(worker);
    await sending;
    expect(sent.attempts).toBeGreaterThan(1);
    expect((await fetch(`${ingestUrl}/readyz`)).status).toBe(200);
    await expectEachOrderOnceAtTikTok(workspaceId, [sent]);
  });
});
