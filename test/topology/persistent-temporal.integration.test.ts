import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { createRepositories, type Repositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { stopChild, type Child } from '../../devstack/children';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { compileServerCode } from '../helpers/built-code';
import { serviceEnv, spawnBuiltWorker, startBuiltIngest, workerRunning } from '../helpers/built-services';
import { closeAll } from '../helpers/close-all';
import { startLoad } from '../helpers/conversion-load';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createPurchaseShop, expectEachOrderOnceAtTikTok } from '../helpers/delivered-once';
import { startPostgresTemporal, type PostgresTemporal } from '../helpers/postgres-temporal';
import { TEST_SECRET_KEY } from '../helpers/test-app';
import { killHard } from '../helpers/worker-child';

/**
 * The production topology (issue 21): a Temporal server on PostgreSQL (built from the Go module of the CLI's version,
 * its schema set up here), two ingest processes and two workers of the build, each a process of its own. Purchases
 * arrive through both ingests; one worker is killed with SIGKILL halfway and started again. Every acknowledged message
 * is stored once, every purchase is one conversion, and TikTok counts each once.
 */
const ORDERS_PER_SECOND_PER_INGEST = 20;
const LOAD_SECONDS_BEFORE_KILL = 10;
const LOAD_SECONDS_AFTER_KILL = 10;
// Four services start, two of them bundling the workflow code, beside a Temporal server, on a shared 2-core machine.
jest.setTimeout(300_000);

let code: string;
let temporal: PostgresTemporal;
let database: TestDatabase;
let fake: FakeTikTok;
let repos: Repositories;
let temporalClient: Client;
let env: NodeJS.ProcessEnv;
let ingestPorts: ReservedPort[] = [];
const ingests: Child[] = [];
const workers: Child[] = [];

beforeAll(async () => {
  // Each one settled and assigned, so that afterAll stops those that started when another did not.
  const started = await Promise.allSettled([
    compileServerCode('topology-').then((built) => (code = built)),
    startPostgresTemporal().then((running) => (temporal = running)),
    createTestDatabase().then((created) => (database = created)),
    startFakeTikTok().then((running) => (fake = running)),
    Promise.all([reservePort(), reservePort()]).then((reserved) => (ingestPorts = reserved)),
  ]);
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  repos = createRepositories(database.db, createSecretBox(TEST_SECRET_KEY));
  temporalClient = new Client({ connection: await Connection.connect({ address: temporal.address }) });

  env = serviceEnv({ databaseUrl: database.url, temporalAddress: temporal.address, tiktokUrl: fake.url });
  workers.push(spawnBuiltWorker(code, env, 'worker-1'), spawnBuiltWorker(code, env, 'worker-2'));
  ingests.push(...(await Promise.all(ingestPorts.map((reserved, index) => startBuiltIngest(code, env, reserved.port, { name: `ingest-${index + 1}` })))));
  await Promise.all(workers.map(workerRunning));
}, 600_000);

afterAll(() =>
  closeAll(
    ...ingests.map((ingest) => () => stopChild(ingest)),
    ...workers.map((worker) => () => stopChild(worker)),
    () => temporalClient?.connection.close(),
    () => fake?.close(),
    () => database?.destroy(),
    () => temporal?.stop(),
    ...ingestPorts.map((reserved) => () => reserved.release()),
    () => code && rmSync(code, { recursive: true, force: true }),
  ),
);

it('two ingests and two workers on a Temporal server on PostgreSQL: a worker killed mid-load and restarted; each purchase is stored, converted and counted by TikTok once', async () => {
  const { workspaceId, key } = await createPurchaseShop(repos, 'Topology shop');
  let restarted: Promise<unknown> | undefined;
  const loads = ingestPorts.map((reserved, index) => startLoad(`http://127.0.0.1:${reserved.port}`, key, `ingest-${index + 1}`, ORDERS_PER_SECOND_PER_INGEST));
  try {
    await sleep(LOAD_SECONDS_BEFORE_KILL * 1000);
    await killHard(workers[0] as Child);
    workers[0] = spawnBuiltWorker(code, env, 'worker-1');
    restarted = workerRunning(workers[0]); // listening from the start: it may be running before the load ends
    restarted.catch(() => undefined); // awaited below; a worker that exits must not be an unhandled rejection meanwhile
    await sleep(LOAD_SECONDS_AFTER_KILL * 1000);
  } catch (error) {
    for (const load of loads) load.abandon(); // the orders still being sent would keep jest alive after the test failed
    throw error;
  }
  const orders = (await Promise.all(loads.map((load) => load.stop()))).flat();
  await restarted;

  await expectEachOrderOnceAtTikTok({ db: database.db, fake, temporal: temporalClient }, workspaceId, orders);
  for (const prefix of ['ingest-1', 'ingest-2']) expect(orders.filter((sent) => sent.orderId.startsWith(`${prefix}-`)).length).toBeGreaterThan(0);
  expect([...ingests, ...workers].map((child) => child.process.exitCode)).toEqual([null, null, null, null]);
});
