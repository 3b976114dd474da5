import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildFakeTikTokApp } from '../../devstack/tiktok-fake';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { INGEST_NODE_FLAGS, startNodeChild, stopChild, waitForHttp, type Child } from '../../devstack/children';
import { reservePort } from '../../devstack/ports';
import { locateTemporalCli } from '../../devstack/temporal-cli';
import { startTemporalDevServer } from '../../devstack/temporal-dev-server';
import { cpuSnapshot } from './cpu';
import { createPipelineProfile } from './profile';

const BUILD_ROOT = path.join(__dirname, '..', '..');

/** Every part of the pipeline as in production: separate ingest and worker processes, a real dev server. */
export async function startInfrastructure() {
  const stops: (() => Promise<void>)[] = [];
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `signalbox_bench_${randomBytes(4).toString('hex')}`;
  const admin = createDatabase({ url: adminUrl, poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${dbName}`);
  stops.push(async () => {
    await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.destroy();
  });
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
  const db = createDatabase({ url: databaseUrl });
  await migrateToLatest(db);
  stops.push(() => db.destroy());

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-bench-'));
  stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const cli = await locateTemporalCli({ projectToolsDir: path.join(BUILD_ROOT, '..', '.tools', 'bin'), allowBuild: true, allowSdkDownload: false, log: console.log });
  const temporal = await startTemporalDevServer({ cli, ip: '127.0.0.1', port: (await reservePort()).port, namespace: 'default', dbFile: path.join(dataDir, 'temporal.db') });
  stops.push(() => temporal.stop());

  const fake = await buildFakeTikTokApp();
  await fake.app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(() => fake.app.close());
  const tiktokUrl = `http://127.0.0.1:${(fake.app.server.address() as AddressInfo).port}`;

  const secretKey = randomBytes(32).toString('hex');
  const shared = { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporal.address, SECRET_KEY: secretKey, LOG_LEVEL: 'warn' };
  const children: Child[] = [];
  // BENCH_CPU_PROFILE_DIR: each child writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
  const cpuProfile = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];
  const startChild = (name: string, script: string, env: Record<string, string>, flags: readonly string[] = []) => {
    const child = startNodeChild(name, path.join(BUILD_ROOT, script), { ...shared, ...env }, [...flags, ...cpuProfile]);
    children.push(child);
    return child;
  };
  const port = (await reservePort()).port;
  const ingestUrl = `http://127.0.0.1:${port}`;
  const profile = createPipelineProfile(db);
  // Profiling reads each group's step times from the worker's info lines.
  const worker = startChild('worker', 'worker/main.js', { TIKTOK_API_URL: tiktokUrl, PUBLIC_URL: ingestUrl, ...(profile.enabled && { LOG_LEVEL: 'info' }) });
  worker.onLine((line) => profile.onWorkerLine(line));
  const ingest = startChild('ingest', 'api/server.js', { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: ingestUrl, ADMIN_TOKEN: randomBytes(24).toString('hex') }, INGEST_NODE_FLAGS);
  await waitForHttp(`${ingestUrl}/healthz`, ingest);

  return {
    db,
    databaseUrl,
    /** The server's admin connection, for more scratch databases beside this one. */
    adminUrl,
    secretKey,
    temporalAddress: temporal.address,
    ingestUrl,
    fakeState: fake.state,
    /** BENCH_PROFILE=1: where each phase's time went. */
    profile,
    startChild,
    /** CPU seconds used so far by this process (fake TikTok and senders), each child, PostgreSQL and Temporal. */
    cpu: () => cpuSnapshot({ 'bench (fake TikTok, senders)': process.pid, ...Object.fromEntries(children.map((c) => [c.name, c.process.pid])) }),
    async stop() {
      for (const child of children.reverse()) await stopChild(child);
      for (const stop of stops.reverse()) await stop();
    },
  };
}

export type Infrastructure = Awaited<ReturnType<typeof startInfrastructure>>;
