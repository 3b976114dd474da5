import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { stopChild, type Child } from '../../devstack/children';
import { reservePort } from '../../devstack/ports';
import { startFakeTikTok } from '../../devstack/tiktok-fake';
import { serviceEnv, spawnBuiltWorker, startBuiltIngest, workerRunning } from '../../test/helpers/built-services';
import { startPrivatePostgres } from '../../test/helpers/private-postgres';
import { startPrivateTemporal } from '../../test/helpers/private-temporal';
import { TEST_ADMIN_TOKEN } from '../../test/helpers/test-app';
import { conversions, storedMessages, tiktokCounts } from '../soak/accounting';
import { startLoad } from '../soak/load';
import { createSenders, type Message } from '../soak/senders';
import { settingsApi } from '../soak/settings-api';
import { createShop, type SoakShop } from '../soak/shops';
import { drain } from '../soak/soak';
import { deliveryChecks, type Check } from '../soak/verdict';
import { startBalancer, type Balancer, type HealthCheck } from './balancer';
import { longestDeliveryPauseMs, longestRefusalMs, TimedLedger } from './timed-ledger';

const run = promisify(execFile);

export interface UpgradeOptions {
  /** Steady load before the upgrade starts, and after its last step. */
  beforeMs: number;
  afterMs: number;
  journeysPerSecond: number;
  /** The load balancer's checks of `/readyz`, as OPERATIONS.md asks for them. */
  healthCheck: HealthCheck;
  /** How long conversions may be refused with none acknowledged: what those checks take to move traffic. */
  refusalLimitMs: number;
  /** The longest pause between two deliveries to TikTok that the run accepts. */
  deliveryPauseGoalMs: number;
  drainMs: number;
}

/** One step of the release as OPERATIONS.md writes it, as run here, with when it started and how long it took. */
export interface StepDone {
  name: string;
  atMs: number;
  tookMs: number;
  output: string;
}

export interface UpgradeReport {
  from: string;
  steps: StepDone[];
  ledger: TimedLedger;
  journeys: number;
  loadMs: number;
  refusal: { ms: number; fromMs: number };
  pause: { ms: number; afterMs: number };
  checks: Check[];
  pass: boolean;
}

/** The same batch before and after the upgrade: Segment's libraries send a batch again when they saw no answer. */
function repeatedBatch(runId: string): Message[] {
  return Array.from({ length: 20 }, (_, i) => ({
    messageId: `upgrade-${runId}-repeat-${i}`,
    type: i % 4 === 0 ? 'page' : 'track',
    anonymousId: `upgrade-${runId}-visitor-${i}`,
    timestamp: new Date().toISOString(),
    ...(i % 4 === 0 ? { name: 'Home', properties: {} } : { event: 'Product Viewed', properties: { product_id: `sku-${i}` } }),
  }));
}

/**
 * Upgrades the release built in `previous` (compiled server code) to the one in `current`, by OPERATIONS.md's
 * "A release", under a steady load of two shops' visitors, purchases and carts sent through a load balancer that
 * checks `/readyz`; then accounts for every message and conversion through the settings API and the fake TikTok.
 */
export async function runUpgrade(previous: string, current: string, from: string, options: UpgradeOptions, progress: (line: string) => void): Promise<UpgradeReport> {
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const [postgres, temporal, fake, balancer, ports] = await Promise.all([
      startPrivatePostgres(),
      startPrivateTemporal(),
      startFakeTikTok(),
      startBalancer(options.healthCheck),
      Promise.all([reservePort(), reservePort()]),
    ]);
    stops.push(() => postgres.stop(), () => temporal.stop(), () => fake.close(), () => balancer.close(), async () => ports.forEach((p) => p.release()));
    const env = serviceEnv({ databaseUrl: postgres.url, temporalAddress: temporal.address, tiktokUrl: fake.url });
    const cli = async (code: string, args: string[]) => {
      const { stdout, stderr } = await run(process.execPath, [path.join(code, 'cli', 'main.js'), ...args], { env, maxBuffer: 16 * 2 ** 20 });
      return `${stdout}${stderr}`.trim();
    };
    const children: Child[] = [];
    stops.push(async () => {
      for (const child of children) await stopChild(child);
    });
    const startApi = async (code: string, index: number, name: string) => {
      const port = (ports[index] as { port: number }).port;
      children.push(await startBuiltIngest(code, env, port, { name }));
      return `http://127.0.0.1:${port}`;
    };
    const startWorker = async (code: string, name: string) => {
      const worker = spawnBuiltWorker(code, env, name);
      children.push(worker);
      await workerRunning(worker);
      return worker;
    };

    progress(`previous release ${from}: migrate, a worker, an API behind the balancer`);
    await cli(previous, ['migrate']);
    const oldWorker = await startWorker(previous, 'old-worker');
    const oldApi = await startApi(previous, 0, 'old-api');
    balancer.add(oldApi);
    await untilReady(balancer, oldApi);

    const api = settingsApi(balancer.url, TEST_ADMIN_TOKEN);
    const shops = [await createShop(api, fake, 'Upgrade shop', false), await createShop(api, fake, 'Upgrade outlet', true)];
    const ledger = new TimedLedger();
    const senders = createSenders(ledger, [balancer.url], shops);
    const runId = Math.random().toString(36).slice(2, 8);
    const repeat = repeatedBatch(runId);
    const sendRepeat = () => {
      for (const message of repeat) ledger.send(message.messageId, { source: 'app', workspaceId: (shops[0] as SoakShop).workspaceId });
      return senders.clientsOf(shops[0] as SoakShop, 0).app(repeat);
    };

    const loadFrom = performance.now();
    const load = startLoad(senders, ledger, shops, 1, options.journeysPerSecond);
    await sendRepeat();
    await sleep(options.beforeMs);

    const upgradeFromEpochMs = Date.now();
    const steps: StepDone[] = [];
    const step = async (name: string, action: () => Promise<string>) => {
      const at = performance.now();
      progress(`step: ${name}`);
      const output = await action();
      steps.push({ name, atMs: at - loadFrom, tookMs: performance.now() - at, output });
    };
    // OPERATIONS.md, "A release", steps 3 to 7 (1, 2 and 8 build and check).
    let newApi = '';
    await step('start the new API beside the old (not ready: schema behind)', async () => {
      newApi = await startApi(current, 1, 'new-api');
      balancer.add(newApi);
      return '';
    });
    await step('signalbox migrate (new build)', () => cli(current, ['migrate']));
    await step('signalbox temporal setup (new build)', () => cli(current, ['temporal', 'setup']));
    await step('roll the worker: start the new, then stop the old', async () => {
      await startWorker(current, 'new-worker');
      await stopChild(oldWorker);
      return '';
    });
    await step('stop the old API: deregister it, then SIGTERM', async () => {
      await untilReady(balancer, newApi);
      balancer.remove(oldApi);
      await stopChild(children.find((child) => child.name === 'old-api') as Child);
      return '';
    });

    await sendRepeat();
    await sleep(options.afterMs);
    const loadResult = await load.stop();
    const loadMs = performance.now() - loadFrom;
    progress('load over; waiting for the clients, then for every conversion to reach a final state');
    await senders.finish();
    await drain(api, shops, options.drainMs);

    const stored = new Map<string, number>();
    for (const shop of shops) for (const [id, times] of await storedMessages(api, shop.workspaceId)) stored.set(`${shop.workspaceId}/${id}`, times);
    const listed = (await Promise.all(shops.map((shop) => conversions(api, shop.workspaceId)))).flat();
    const tiktok = await tiktokCounts(fake);
    const { events } = await fake.receivedEvents();
    const refusal = longestRefusalMs(ledger.conversionAnswers);
    const pause = longestDeliveryPauseMs(events.map((event) => event.receivedAt), upgradeFromEpochMs);
    const repeatStored = repeat.map((message) => stored.get(`${shops[0]?.workspaceId}/${message.messageId}`) ?? 0);
    const checks: Check[] = [
      ...deliveryChecks({ ledger, stored, conversions: listed, tiktok: tiktok.counts }),
      verdict(
        'the batch sent before and after the upgrade stored once',
        repeatStored.every((times) => times === 1),
        `${repeat.length} messages, stored ${[...new Set(repeatStored)].join(' or ')} time(s) each`,
      ),
      verdict(
        `no conversion refused for longer than the health checks take to move traffic (${options.refusalLimitMs / 1000} s)`,
        refusal.ms <= options.refusalLimitMs,
        `longest: ${(refusal.ms / 1000).toFixed(1)} s`,
      ),
      verdict(
        `longest pause between deliveries to TikTok under ${options.deliveryPauseGoalMs / 1000} s`,
        pause.ms < options.deliveryPauseGoalMs,
        `${(pause.ms / 1000).toFixed(1)} s`,
      ),
      verdict('the load ran as designed', loadResult.errors.length === 0 && ledger.undelivered.length === 0, [...loadResult.errors, ...ledger.undelivered.map((u) => `${u.source}: ${u.why}`)].slice(0, 5).join('; ') || 'every request acknowledged'),
    ];
    return { from, steps, ledger, journeys: loadResult.journeys, loadMs, refusal: { ...refusal, fromMs: refusal.fromMs - loadFrom }, pause, checks, pass: checks.every((c) => c.outcome !== 'FAIL') };
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  }
}

const verdict = (name: string, pass: boolean, detail: string): Check => ({ name, outcome: pass ? 'PASS' : 'FAIL', detail });

/** Resolves once the balancer would send to `url` (it answered `/readyz` 200). */
async function untilReady(balancer: Balancer, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!balancer.isReady(url)) {
    if (performance.now() > deadline) throw new Error(`${url}/readyz did not answer 200 within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}
