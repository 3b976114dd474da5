import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild, type Child } from '../devstack/children';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { EVENT_TRACK_PATH } from '../devstack/tiktok-fake';
import { compileServerCode } from './helpers/built-code';
import { deleteSchedulesOf, serviceEnv, startBuiltIngest } from './helpers/built-services';
import { closeAll } from './helpers/close-all';
import { order, sendUntilAnswered, startLoad, type Order } from './helpers/conversion-load';
import { createPurchaseShop, expectEachOrderOnceAtTikTok } from './helpers/delivered-once';
import { killIfRunning, loggedWorkerRunning, spawnLoggedWorker, stopAndTime, type LoggedWorker } from './helpers/logged-worker';
import { temporalTestAddress, TestPipeline } from './helpers/pipeline';

/**
 * SIGTERM to the built worker (`node worker/main.js`) on the shared Temporal dev server, with the built ingest API
 * taking purchases over HTTP and the fake TikTok: the worker stops claiming groups at once, finishes the TikTok request
 * in flight and hands back the rest, and exits within WORKER_SHUTDOWN_GRACE_MS whatever its steps are doing; the next
 * worker delivers what it handed back, each purchase once.
 */
jest.setTimeout(240_000);

const GRACE_MS = 8_000;
/** Opens no token: the deliver step of a worker started with it fails every time, as during a botched key rotation. */
const WRONG_KEY = '7f'.repeat(32);

let code: string;
let pipeline: TestPipeline;
let ingestPort: ReservedPort;
let ingest: Child;
const workers: LoggedWorker[] = [];

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...serviceEnv({ databaseUrl: pipeline.database.url, temporalAddress: temporalTestAddress(), tiktokUrl: pipeline.fake.url }),
  TEMPORAL_TASK_QUEUE: pipeline.taskQueue,
  WORKER_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  LOG_LEVEL: 'info',
  ...extra,
});
const ingestUrl = () => `http://127.0.0.1:${ingestPort.port}`;
const witnesses = () => ({ db: pipeline.database.db, fake: pipeline.fake, temporal: pipeline.client });

async function startWorker(extra: NodeJS.ProcessEnv = {}): Promise<LoggedWorker> {
  const worker = spawnLoggedWorker(code, env(extra));
  workers.push(worker);
  await loggedWorkerRunning(worker);
  return worker;
}

/** The worker's log lines from the one whose message is `from` on. */
function linesFrom(worker: LoggedWorker, from: string): Record<string, unknown>[] {
  const parsed = worker.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return parsed.slice(parsed.findIndex((line) => line.msg === from));
}

/** How many `event/track` requests carried each of these conversions' events. */
async function requestsPerEvent(workspaceId: string): Promise<number[]> {
  const eventIds = (await pipeline.database.db('conversions').where({ workspace_id: workspaceId }).pluck('event_id')) as string[];
  const { requests } = await pipeline.fake.receivedEvents();
  const tracks = requests.filter((request) => request.path === EVENT_TRACK_PATH);
  return eventIds.map((eventId) => tracks.filter((request) => request.rawBody.includes(`"${eventId}"`)).length);
}

beforeAll(async () => {
  const started = await Promise.allSettled([
    compileServerCode('worker-shutdown-').then((built) => (code = built)),
    TestPipeline.start({ worker: false }).then((running) => (pipeline = running)),
    reservePort().then((reserved) => (ingestPort = reserved)),
  ]);
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  ingest = await startBuiltIngest(code, env(), ingestPort.port);
}, 300_000);

/** Each test starts its own workers: a worker left running would take the next test's workflows. */
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => stopAndTime(worker)));
  await pipeline.fake.clearFaults();
});

afterAll(() =>
  closeAll(
    () => ingest && stopChild(ingest),
    () => Promise.all(workers.map(killIfRunning)),
    () => pipeline && deleteSchedulesOf(pipeline.client, pipeline.taskQueue),
    () => pipeline?.close(),
    () => ingestPort?.release(),
    () => code && rmSync(code, { recursive: true, force: true }),
  ),
);

describe('SIGTERM to a worker', () => {
  it('under load: it claims no group after the signal, exits within its bound, and the next worker delivers every purchase once', async () => {
    const { workspaceId, key } = await createPurchaseShop(pipeline.repos, 'Rolling restart shop');
    const first = await startWorker();
    // TikTok answers slowly: at the signal a request is in flight more often than not.
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, latencyMs: 700, times: 10_000 }]);
    const load = startLoad(ingestUrl(), key, 'rolling', 40);
    let orders: Order[];
    try {
      await sleep(3_000);
      await startWorker(); // a rolling restart: the next one runs before the first is told to stop
      await sleep(1_000);
      const stopped = await stopAndTime(first);
      expect(stopped).toEqual({ code: 0, afterMs: expect.any(Number) });
      expect(stopped.afterMs).toBeLessThan(GRACE_MS);
      await sleep(3_000);
    } finally {
      orders = await load.stop();
    }
    await expectEachOrderOnceAtTikTok(witnesses(), workspaceId, orders);
    expect(new Set(await requestsPerEvent(workspaceId))).toEqual(new Set([1]));

    // After the signal: at most the group in hand, sent or handed back; then it stopped, and said how fast.
    const afterSignal = linesFrom(first, 'stopping: no more groups are claimed; the group in hand finishes its request and is handed back');
    const groups = afterSignal.filter((line) => line.msg === 'conversion group processed');
    expect(groups.length).toBeLessThanOrEqual(1);
    for (const group of groups) expect(['sent', 'handed_back']).toContain(group.outcome);
    expect(afterSignal.at(-1)).toMatchObject({ msg: 'worker stopped', stoppedInMs: expect.any(Number) });
    // Temporal core's own lines are JSON through the same logger.
    expect(afterSignal).toContainEqual(expect.objectContaining({ sdkComponent: 'core', msg: 'Initiated shutdown', taskQueue: pipeline.taskQueue }));
  });

  it('with a deliver step failing at every attempt: the step hands its group back at its next attempt and the worker exits within its bound; its error is logged whole; the next worker sends each purchase once', async () => {
    const { workspaceId, key } = await createPurchaseShop(pipeline.repos, 'Failing step shop');
    const failing = await startWorker({ SECRET_KEY: WRONG_KEY });
    const orders = ['failing-1', 'failing-2', 'failing-3'].map(order);
    await Promise.all(orders.map((sent) => sendUntilAnswered(ingestUrl(), key, sent)));

    const failure = JSON.parse(await failing.waitForLine(/"msg":"Activity failed"/)) as Record<string, unknown>;
    expect(failure).toMatchObject({
      level: 40,
      activityType: 'deliverConversionGroup',
      isLocal: true,
      error: {
        type: 'SealedSecretError',
        message: expect.stringMatching(/^tiktok_connections\.access_token_ciphertext: the stored value does not open with SECRET_KEY: it was sealed under another key/),
        stack: expect.stringContaining('SealedSecretError'),
        cause: { type: 'Error', message: 'Unsupported state or unable to authenticate data' },
      },
    });
    await failing.waitForLine(/"attempt":3,.*"msg":"Activity failed"/);

    const stopped = await stopAndTime(failing);
    expect(stopped.code).toBe(0);
    expect(stopped.afterMs).toBeLessThan(GRACE_MS);
    expect(linesFrom(failing, 'stopping: no more groups are claimed; the group in hand finishes its request and is handed back')).toContainEqual(
      expect.objectContaining({ msg: 'conversion group processed', outcome: 'handed_back', handedBack: 3, requests: 0 }),
    );
    for (const line of failing.lines) expect(() => JSON.parse(line)).not.toThrow();

    await startWorker();
    await expectEachOrderOnceAtTikTok(witnesses(), workspaceId, orders);
    expect(await requestsPerEvent(workspaceId)).toEqual([1, 1, 1]);
  });

  it('with a TikTok request outlasting the bound: the worker exits at the bound; the next one takes the group over and TikTok counts the purchase once', async () => {
    const { workspaceId, key } = await createPurchaseShop(pipeline.repos, 'Slow TikTok shop');
    const graceMs = 4_000;
    const stuck = await startWorker({ WORKER_SHUTDOWN_GRACE_MS: String(graceMs) });
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, latencyMs: 9_000 }]);
    const sent = order('slow-1');
    await sendUntilAnswered(ingestUrl(), key, sent);
    for (let round = 0; (await requestsPerEvent(workspaceId))[0] !== 1; round++) {
      if (round > 300) throw new Error('the request never reached TikTok');
      await sleep(100);
    }

    const stopped = await stopAndTime(stuck);
    expect(stopped.code).toBe(1);
    expect(stopped.afterMs).toBeGreaterThanOrEqual(graceMs);
    expect(stopped.afterMs).toBeLessThan(graceMs + 1_000);
    expect(stuck.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'still running at WORKER_SHUTDOWN_GRACE_MS: exiting; another worker takes its workflows over', graceMs }),
    );

    await startWorker();
    await expectEachOrderOnceAtTikTok(witnesses(), workspaceId, [sent]);
  });
});
