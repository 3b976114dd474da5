import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { FAKE_TIKTOK_ADVERTISER_ID } from './tiktok-fake';
import { run } from '../cli/program';
import { createDatabase } from '../db/knex';
import { compileServerCode } from '../test/helpers/built-code';
import { closeAll } from '../test/helpers/close-all';
import { ALERTS_SCHEDULE_ID, CONSOLE_ROLLUP_SCHEDULE_ID, OUTBOX_SWEEPER_SCHEDULE_ID } from '../temporal/schedules';
import { reservePort, type ReservedPort } from './ports';

/**
 * `npm start` as a person runs it: the built code (compiled here with esbuild, file by file as tsc lays it out) with
 * its own data folder, on this run's PostgreSQL and Temporal dev server, the fake TikTok and ingest on reserved ports.
 */
let out: string;
let dataDir: string;
let runtimeDir: string;
let admin: Knex;
/** An empty database: the stack migrates it itself (knex records the compiled .js migrations, as npm start does). */
const databaseName = `signalbox_devstack_${randomBytes(6).toString('hex')}`;
let stack: ChildProcess | undefined;
/** Ingest's, the fake TikTok's, the worker's health server, the mail sink's and the fake Shopify's and its storefront's: the stack is told them, as a person sets PORT, FAKE_TIKTOK_PORT, …. */
let ports: ReservedPort[] = [];
const lines: string[] = [];
const taskQueue = `devstack-test-${process.pid}`;

function databaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

function waitForLine(pattern: RegExp, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const index = lines.findIndex((line) => pattern.test(line));
      if (index >= 0) return resolve(index);
      if (stack?.exitCode !== null) return reject(new Error(`the dev stack exited with ${stack?.exitCode}:\n${lines.join('\n')}`));
      if (Date.now() - started > timeoutMs) return reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`));
      setTimeout(check, 100);
    };
    check();
  });
}

async function signalbox(args: string[], cwd: string) {
  const err: string[] = [];
  const outLines: string[] = [];
  const code = await run(args, { out: (text) => outLines.push(text), err: (text) => err.push(text), env: { XDG_RUNTIME_DIR: runtimeDir }, cwd });
  return { code, stdout: outLines.join('\n'), stderr: err.join('\n') };
}

beforeAll(async () => {
  out = await compileServerCode('devstack-test-');
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-devstack-data-'));
  runtimeDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-devstack-runtime-'));
  admin = createDatabase({ url: process.env.TEST_DATABASE_URL as string, poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${databaseName}`);
  ports = await Promise.all([reservePort(), reservePort(), reservePort(), reservePort(), reservePort(), reservePort()]);
  const [ingestPort, fakeTikTokPort, workerHealthPort, mailSinkPort, fakeShopifyPort, fakeStorefrontPort] = ports.map((reserved) => String(reserved.port));
  stack = spawn(process.execPath, [path.join(out, 'devstack', 'start.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl(),
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PORT: ingestPort,
      FAKE_TIKTOK_PORT: fakeTikTokPort,
      WORKER_HEALTH_PORT: workerHealthPort,
      MAIL_SINK_PORT: mailSinkPort,
      FAKE_SHOPIFY_PORT: fakeShopifyPort,
      FAKE_STOREFRONT_PORT: fakeStorefrontPort,
      SIGNALBOX_DATA_DIR: dataDir,
      XDG_RUNTIME_DIR: runtimeDir,
      // The worker's readiness line must come whatever the level.
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [stack.stdout, stack.stderr]) if (stream) createInterface({ input: stream }).on('line', (line) => lines.push(line));
}, 300_000);

async function stopStack(): Promise<void> {
  if (!stack || stack.exitCode !== null || stack.signalCode !== null) return;
  const exited = new Promise((resolve) => stack?.once('exit', resolve));
  stack.kill('SIGTERM');
  await exited;
}

async function deleteSchedules(): Promise<void> {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS as string });
  try {
    for (const scheduleId of [OUTBOX_SWEEPER_SCHEDULE_ID, CONSOLE_ROLLUP_SCHEDULE_ID, ALERTS_SCHEDULE_ID]) {
      const schedule = new Client({ connection }).schedule.getHandle(scheduleId);
      const description = await schedule.describe().catch(() => undefined);
      if (description?.action.type === 'startWorkflow' && description.action.taskQueue === taskQueue) await schedule.delete();
    }
  } finally {
    await connection.close();
  }
}

afterAll(
  () =>
    closeAll(
      stopStack,
      () => ports.forEach((reserved) => reserved.release()),
      deleteSchedules,
      () => admin?.raw(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`),
      () => admin?.destroy(),
      () => [out, dataDir, runtimeDir].forEach((dir) => dir && rmSync(dir, { recursive: true, force: true })),
    ),
  120_000,
);

describe('npm start', () => {
  it('prints "running" only once the worker is running, the CLI finds that stack by itself, its worker pulls statistics, and a shop connects through the fake Shopify', async () => {
    const running = await waitForLine(/^Signalbox is running\./, 240_000);
    const workerRunning = lines.findIndex((line) => /^\[worker\] INFO worker (started|running)\b/.test(line));
    expect(workerRunning).toBeGreaterThanOrEqual(0);
    expect(workerRunning).toBeLessThan(running);

    // Started with its own SIGNALBOX_DATA_DIR, and the CLI run from elsewhere without it: the only stack running.
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'signalbox-devstack-cwd-'));
    try {
      const health = await signalbox(['--verbose', 'health'], elsewhere);
      expect(health).toMatchObject({ code: 0, stdout: 'Signalbox is ready' });
      expect(health.stderr).toMatch(new RegExp(`^Signalbox at http://127\\.0\\.0\\.1:\\d+ \\(from ${path.join(dataDir, 'dev-stack.json').replace(/[.]/g, '\\.')}\\)$`));

      // The worker's health server it printed answers ready.
      const workerReadiness = lines.map((line) => /^\s+Worker\s+(http\S+\/readyz)\s/.exec(line)?.[1]).find((url) => url !== undefined);
      expect(workerReadiness).toBe(`http://127.0.0.1:${ports[2]?.port}/readyz`);
      expect((await fetch(workerReadiness as string)).status).toBe(200);

      // The console sign-in it printed opens a session.
      const consoleUrl = lines.map((line) => /^\s+Console\s+(http\S+)$/.exec(line)?.[1]).find((url) => url !== undefined);
      const credentials = lines.map((line) => /sign in as (\S+) with password (\S+) /.exec(line)).find((match) => match !== null);
      const signedIn = await fetch(`${consoleUrl}api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: credentials?.[1], password: credentials?.[2] }) });
      expect(signedIn.status).toBe(200);

      // Mail goes to the stack's outbox: a password reset link for that account lands there, and is logged.
      const asked = await fetch(`${consoleUrl}api/password-resets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: credentials?.[1] }) });
      expect(asked.status).toBe(202);
      await waitForLine(/^\[devstack\] mail to dev@signalbox\.local: "Set a new Signalbox password"/, 30_000);
      const outbox = path.join(dataDir, 'outbox');
      const stored = readdirSync(outbox).filter((name) => name.endsWith('.txt'));
      expect(stored).toHaveLength(1);
      expect(readFileSync(path.join(outbox, stored[0] as string), 'utf8')).toMatch(/^From: signalbox@localhost\nTo: dev@signalbox\.local\nSubject: Set a new Signalbox password\n[\s\S]*\/console\/reset-password\/[A-Za-z0-9_-]{43}\n/);

      // The worker pulls TikTok's statistics under its database deadlines (each page stored by a named statement) and stays up.
      const ws = /ws_\w+/.exec((await signalbox(['workspaces', 'create', 'Stats shop'], elsewhere)).stdout)?.[0] as string;
      const connect = ['tiktok', 'set', ws, '--token', 'signalbox-dev-tiktok-access-token', '--pixel', 'CSIGNALBOXDEVPIXEL01', '--advertiser', FAKE_TIKTOK_ADVERTISER_ID];
      expect(await signalbox(connect, elsewhere)).toMatchObject({ code: 0 });
      expect(await signalbox(['tiktok', 'pull', ws], elsewhere)).toMatchObject({ code: 0 });
      const stackDb = createDatabase({ url: databaseUrl(), poolMax: 1 });
      try {
        const pulledAt = async () => (await stackDb('tiktok_connections').where({ workspace_id: ws }).first('stats_pulled_at', 'stats_pull_error')) as { stats_pulled_at: Date | null; stats_pull_error: string | null };
        for (let waited = 0; (await pulledAt()).stats_pulled_at === null && waited < 60_000; waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));
        expect(await pulledAt()).toMatchObject({ stats_pulled_at: expect.any(Date), stats_pull_error: null });
        expect(Number((await stackDb('ad_stats_daily').where({ workspace_id: ws }).count({ n: '*' }))[0]?.n)).toBeGreaterThan(0);
      } finally {
        await stackDb.destroy();
      }
      expect(stack?.exitCode).toBeNull();
      expect(await signalbox(['tiktok', 'disconnect', ws], elsewhere)).toMatchObject({ code: 0 });

      // Connect Shopify against the stack's fake Shopify: the URL printed, "Install app", what it made, an order, the app removed.
      const shop = 'fern-shop.myshopify.com';
      const fakeShopify = `http://127.0.0.1:${ports[4]?.port}`;
      const authorization = JSON.parse((await signalbox(['--json', 'shopify', 'connect', ws, '--shop', shop], elsewhere)).stdout) as { url: string };
      const approved = await fetch(new URL('authorize', authorization.url), { method: 'POST', body: new URLSearchParams([...new URL(authorization.url).searchParams]), redirect: 'manual' });
      expect((await fetch(approved.headers.get('location') as string, { headers: { accept: 'application/json' } })).status).toBe(200);
      const made = (await (await fetch(`${fakeShopify}/_fake/shops/${shop}`)).json()) as { subscriptions: unknown[]; scriptTags: unknown[] };
      expect({ subscriptions: made.subscriptions.length, scriptTags: made.scriptTags.length }).toEqual({ subscriptions: 8, scriptTags: 1 });
      const order = (await (await fetch(`${fakeShopify}/_fake/shops/${shop}/orders`, { method: 'POST', body: '{}' })).json()) as { delivered: { status: number; body: unknown }[] };
      expect(order.delivered).toEqual([expect.objectContaining({ status: 200, body: { success: true } })]);
      const removed = (await (await fetch(`${fakeShopify}/_fake/shops/${shop}/uninstall`, { method: 'POST' })).json()) as { told: { status: number }[] };
      expect(removed.told).toEqual([expect.objectContaining({ status: 200 })]);
      expect((await signalbox(['shopify', 'status', ws], elsewhere)).stdout).toMatch(/^No shop is connected/);

      const exited = new Promise<number | null>((resolve) => stack?.once('exit', resolve));
      stack?.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect((await signalbox(['health'], elsewhere)).stderr).toMatch(/^Error: no server URL/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
