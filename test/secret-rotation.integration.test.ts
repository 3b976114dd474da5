import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { stopChild, type Child } from '../devstack/children';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { createRepositories } from '../db/repositories';
import { DEFAULT_ALERT_SETTINGS } from '../db/repositories/alert-settings';
import { createSecretBox } from '../db/secret-box';
import { compileServerCode } from './helpers/built-code';
import { deleteSchedulesOf, serviceEnv, startBuiltIngest } from './helpers/built-services';
import { closeAll } from './helpers/close-all';
import { TEST_PASSWORD } from './helpers/console-client';
import { startLoad, type Load, type Order } from './helpers/conversion-load';
import { createPurchaseShop, expectEachOrderOnceAtTikTok } from './helpers/delivered-once';
import { killIfRunning, loggedWorkerRunning, spawnLoggedWorker, stopAndTime, type LoggedWorker } from './helpers/logged-worker';
import { temporalTestAddress, TEST_SECRET_KEY, TestPipeline } from './helpers/pipeline';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * OPERATIONS.md's rotation of SECRET_KEY, on the built processes (two workers, the API) under a steady load of
 * purchases through the API, on the shared Temporal dev server with the fake TikTok: deploy both keys (a rolling
 * restart), `signalbox secrets rotate` with the workers delivering, drop the old key (another rolling restart). No
 * delivery fails or stops meanwhile, every purchase reaches TikTok once, and with the new key alone the Alerts page
 * reads and saves its webhook and the alerts workflow evaluates it.
 */
jest.setTimeout(420_000);

const OLD_KEY = TEST_SECRET_KEY;
const NEW_KEY = 'a1'.repeat(32);
const ORDERS_PER_SECOND = 10;

let code: string;
let pipeline: TestPipeline;
let ingestPort: ReservedPort;
let ingest: Child;
let workers: LoggedWorker[] = [];
const retired: LoggedWorker[] = [];

type Keys = { SECRET_KEY: string; SECRET_KEY_PREVIOUS?: string };
const env = (keys: Keys): NodeJS.ProcessEnv => ({
  ...serviceEnv({ databaseUrl: pipeline.database.url, temporalAddress: temporalTestAddress(), tiktokUrl: pipeline.fake.url }),
  TEMPORAL_TASK_QUEUE: pipeline.taskQueue,
  LOG_LEVEL: 'info',
  ...keys,
});
const ingestUrl = () => `http://127.0.0.1:${ingestPort.port}`;

async function startWorker(keys: Keys): Promise<LoggedWorker> {
  const worker = spawnLoggedWorker(code, env(keys));
  await loggedWorkerRunning(worker);
  return worker;
}

/** Each worker replaced by one with `keys`, one at a time (the new one runs before the old one is stopped); then the API. */
async function rollingRestart(keys: Keys): Promise<void> {
  for (const [index, worker] of workers.entries()) {
    workers[index] = await startWorker(keys);
    expect((await stopAndTime(worker)).code).toBe(0);
    retired.push(worker);
  }
  await stopChild(ingest);
  ingest = await startBuiltIngest(code, env(keys), ingestPort.port);
}

/** The Alerts page's calls, as the console makes them over HTTP: signed in as the workspace's owner. */
async function alertsPage(workspaceId: string, email: string) {
  const signIn = await fetch(`${ingestUrl()}/console/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: TEST_PASSWORD }) });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.getSetCookie().find((header) => header.startsWith('sbx_session=')) as string).split(';')[0] as string;
  const { csrfToken } = (await signIn.json()) as { csrfToken: string };
  const url = `${ingestUrl()}/console/api/workspaces/${workspaceId}/alerts`;
  return {
    get: () => fetch(url, { headers: { cookie } }),
    put: (settings: unknown) => fetch(url, { method: 'PUT', headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' }, body: JSON.stringify(settings) }),
  };
}

beforeAll(async () => {
  const started = await Promise.allSettled([
    compileServerCode('secret-rotation-').then((built) => (code = built)),
    TestPipeline.start({ worker: false }).then((running) => (pipeline = running)),
    reservePort().then((reserved) => (ingestPort = reserved)),
  ]);
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
}, 300_000);

afterAll(() =>
  closeAll(
    () => ingest && stopChild(ingest),
    () => Promise.all([...workers, ...retired].map(killIfRunning)),
    () => pipeline && deleteSchedulesOf(pipeline.client, pipeline.taskQueue),
    () => pipeline?.close(),
    () => ingestPort?.release(),
    () => code && rmSync(code, { recursive: true, force: true }),
  ),
);

describe('rotating SECRET_KEY as OPERATIONS.md says, with the workers delivering', () => {
  it('loses and fails no delivery, and leaves Alerts working with the new key alone', async () => {
    // Stored under the old key by services that had only it: TikTok tokens and alert webhook URLs (at a public address
    // written as one, example.com's, as this machine resolves no public name and a refused internal address is not the
    // subject here).
    const shops = [await createPurchaseShop(pipeline.repos, 'Rotation shop A'), await createPurchaseShop(pipeline.repos, 'Rotation shop B')];
    for (const [index, { workspaceId }] of shops.entries()) {
      await pipeline.repos.alertSettings.put(workspaceId, { ...DEFAULT_ALERT_SETTINGS, webhookUrl: `https://93.184.215.14/services/rotation-${index}` });
    }
    const owner = 'owner@rotation.example';
    const [shopA] = shops as [(typeof shops)[number]];

    ingest = await startBuiltIngest(code, env({ SECRET_KEY: OLD_KEY }), ingestPort.port);
    const added = await fetch(`${ingestUrl()}/admin/workspaces/${shopA.workspaceId}/members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner, role: 'owner', password: TEST_PASSWORD }),
    });
    expect(added.status).toBe(201);
    workers = [await startWorker({ SECRET_KEY: OLD_KEY }), await startWorker({ SECRET_KEY: OLD_KEY })];

    const loads: Load[] = shops.map(({ key }, index) => startLoad(ingestUrl(), key, `rotation-${index}`, ORDERS_PER_SECOND));
    let orders: Order[][];
    let rotation: { stdout: string; stderr: string };
    try {
      await sleep(3_000);
      await rollingRestart({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY });
      await sleep(2_000);
      rotation = await promisify(execFile)(process.execPath, [path.join(code, 'cli', 'main.js'), 'secrets', 'rotate'], {
        env: { ...env({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY }), LOG_LEVEL: 'warn' },
      });
      await sleep(3_000);
      await rollingRestart({ SECRET_KEY: NEW_KEY });
      await sleep(3_000);
    } finally {
      orders = await Promise.all(loads.map((load) => load.stop()));
    }

    expect(rotation.stdout.split('\n')).toEqual([
      'tiktok_connections.access_token_ciphertext: 2 re-encrypted, 0 already under SECRET_KEY, 0 opened by neither key',
      'alert_settings.webhook_url_ciphertext: 2 re-encrypted, 0 already under SECRET_KEY, 0 opened by neither key',
      'webhook_sources.signing_secret_ciphertext: 0 re-encrypted, 0 already under SECRET_KEY, 0 opened by neither key',
      'shopify_connections.access_token_ciphertext: 0 re-encrypted, 0 already under SECRET_KEY, 0 opened by neither key',
      'Every sealed value opens with SECRET_KEY now: remove SECRET_KEY_PREVIOUS from the services, restarting them one at a time.',
      '',
    ]);
    for (const [index, { workspaceId }] of shops.entries()) {
      await expectEachOrderOnceAtTikTok({ db: pipeline.database.db, fake: pipeline.fake, temporal: pipeline.client }, workspaceId, orders[index] as Order[]);
    }
    // No step failed in any worker, before, during or after the rotation, and nothing was logged as an error. (Temporal
    // core's warnings are not counted: on a loaded machine it warns of long workflow tasks, or of one the server timed out.)
    const logged = [...retired, ...workers].flatMap((worker) => worker.lines.map((line) => JSON.parse(line) as { level: number; msg: string }));
    expect(logged.filter((line) => line.level >= 50 || /^(Activity|Workflow) failed$/.test(line.msg))).toEqual([]);

    // With the new key alone: the Alerts page reads the webhook and saves it again; the alerts workflow reads them all.
    const page = await alertsPage(shopA.workspaceId, owner);
    const shown = await page.get();
    expect(shown.status).toBe(200);
    expect(((await shown.json()) as { settings: { webhook: string } }).settings.webhook).toBe('https://93.184.215.14/…on-0');
    const saved = await page.put({ ...DEFAULT_ALERT_SETTINGS, silenceMinutes: 60, webhookUrl: 'https://93.184.215.14/services/rotated' });
    expect(saved.status).toBe(200);
    const evaluated = await pipeline.client.workflow.execute('alertsWorkflow', { taskQueue: pipeline.taskQueue, workflowId: `rotation-alerts-${Date.now()}` });
    expect(evaluated).toMatchObject({ workspaces: 2, failedWorkspaces: 0 });

    const underNewKeyAlone = createRepositories(pipeline.database.db, createSecretBox(NEW_KEY));
    for (const { workspaceId } of shops) expect((await underNewKeyAlone.tiktokConnections.withToken(workspaceId))?.accessToken).toBeDefined();
    expect((await underNewKeyAlone.alertSettings.get(shopA.workspaceId)).webhookUrl).toBe('https://93.184.215.14/services/rotated');
  });
});
