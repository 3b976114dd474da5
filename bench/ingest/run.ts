import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { INGEST_NODE_FLAGS, startNodeChild, stopChild, waitForHttp, type Child } from '../../devstack/children';
import { reservePort } from '../../devstack/ports';
import { startBenchCluster, type BenchCluster } from './cluster';
import { copyEvents } from './copy';
import { createSender } from './http-client';
import { closedLoop, openLoop, type LoadResult } from './load';
import { cpuBetween, readCpu, type CpuReading, type Parts } from './processes';
import { watchStalls, watchedText, type WatchedSecond } from './stall-watch';
import { benchEvents, chunk } from './workload';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** Events sent in batches to the new ingest process before the measured batches, as the singles get their warm-up. */
const BATCH_WARM_UP_EVENTS = Number(process.env.BENCH_BATCH_WARM_UP_EVENTS ?? 20_000);
const SINGLE_RATE = Number(process.env.BENCH_SINGLE_RATE ?? 1_000);
const SINGLE_SECONDS = Number(process.env.BENCH_SINGLE_SECONDS ?? 30);
const SINGLE_WARM_UP_SECONDS = Number(process.env.BENCH_SINGLE_WARM_UP_SECONDS ?? 2);
const BURST_EVENTS = Number(process.env.BENCH_BURST_EVENTS ?? 1_000_000);
const PROFILE = process.env.BENCH_PROFILE === '1';
const BUILD_ROOT = path.join(__dirname, '..', '..');
const SECRET_KEY = randomBytes(32).toString('hex');

interface Prepared {
  url: string;
  workspaceIds: string[];
  keys: string[];
}

async function prepareDatabase(cluster: BenchCluster, name: string, workspaces: number): Promise<Prepared> {
  const admin = createDatabase({ url: cluster.url('postgres'), poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  await admin.destroy();
  const db = createDatabase({ url: cluster.url(name), poolMax: 1 });
  try {
    if (PROFILE) await db.raw('CREATE EXTENSION pg_stat_statements');
    await migrateToLatest(db);
    const repos = createRepositories(db, createSecretBox(SECRET_KEY));
    const workspaceIds: string[] = [];
    const keys: string[] = [];
    for (let i = 0; i < workspaces; i += 1) {
      const workspace = await repos.workspaces.create(`Bench shop ${i}`);
      workspaceIds.push(workspace.id);
      keys.push((await repos.apiKeys.create(workspace.id, 'bench')).key);
    }
    return { url: cluster.url(name), workspaceIds, keys };
  } finally {
    await db.destroy();
  }
}

/** The ingest API as production runs it: its own process (`node dist/api/server.js`). */
async function startIngest(databaseUrl: string): Promise<{ child: Child; url: string }> {
  const port = (await reservePort()).port;
  const child = startNodeChild('ingest', path.join(BUILD_ROOT, 'api', 'server.js'), {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    SECRET_KEY,
    // No conversion rule, so no workflow to start: nothing listens there.
    TEMPORAL_ADDRESS: `127.0.0.1:${(await reservePort()).port}`,
    LOG_LEVEL: 'warn',
    // A CPU profile of each ingest run (open it in Chrome DevTools or speedscope).
  }, [...INGEST_NODE_FLAGS, ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve('bench-profiles')}`] : [])]);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child);
  return { child, url };
}

function cpuText(used: Record<string, number>): string {
  return Object.entries(used)
    .map(([part, seconds]) => `${part} ${seconds.toFixed(1)} s`)
    .join(', ');
}

async function measured<T>(parts: Parts, run: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }> {
  const before: CpuReading = readCpu(parts);
  const result = await run();
  return { result, cpu: cpuBetween(before, readCpu(parts)) };
}

type Load = (url: string, keys: string[]) => Promise<LoadResult>;

/** `run` measured against a new ingest process, after the `before` loads (not measured) in turn; `watch`ed second by second if asked. */
async function overHttp(cluster: BenchCluster, name: string, workspaces: number, run: Load, before: Load[] = [], watch = false) {
  const prepared = await prepareDatabase(cluster, name, workspaces);
  const ingest = await startIngest(prepared.url);
  try {
    const warmedUp: LoadResult[] = [];
    for (const load of before) warmedUp.push(await load(ingest.url, prepared.keys));
    const parts: Parts = {
      'load generator': { pid: process.pid, withChildren: false },
      ingest: { pid: ingest.child.process.pid as number, withChildren: false },
      PostgreSQL: { pid: cluster.postmasterPid, withChildren: true },
    };
    const watcher = watch ? watchStalls(cluster.url('postgres'), name) : undefined;
    const result = await measured(parts, () => run(ingest.url, prepared.keys));
    const watched: WatchedSecond[] = (await watcher?.stop()) ?? [];
    return { ...result, warmedUp, watched };
  } finally {
    await stopChild(ingest.child);
  }
}

async function printStatementProfile(cluster: BenchCluster, database: string): Promise<void> {
  const db = createDatabase({ url: cluster.url(database), poolMax: 1 });
  const { rows } = await db.raw<{ rows: { calls: string; total_ms: number; mean_ms: number; rows: string; query: string }[] }>(
    `SELECT calls, round(total_exec_time::numeric, 1) AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
     FROM pg_stat_statements JOIN pg_database d ON d.oid = dbid WHERE d.datname = ? ORDER BY total_exec_time DESC LIMIT 12`,
    [database],
  );
  console.log(`\npg_stat_statements, ${database} (execution time only; parse, plan, commit and the wire are outside it):`);
  for (const r of rows) console.log(`  ${String(r.calls).padStart(7)} calls ${String(r.total_ms).padStart(9)} ms ${String(r.mean_ms).padStart(7)} ms/call  ${r.query}`);
  await db.destroy();
}

const slowestText = ({ slowestBySecond = [] }: LoadResult) =>
  slowestBySecond
    .map((count, second) => (count > 0 ? `${second} s: ${count}` : ''))
    .filter(Boolean)
    .join(', ');

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  console.log(
    `Signalbox ingest benchmark: ${fmt(EVENTS)} events by COPY and in batches of ${BATCH} (${CONCURRENCY} senders, after ${fmt(BATCH_WARM_UP_EVENTS)} others to warm the ingest process up); single-event requests at ${SINGLE_RATE}/s for ${SINGLE_SECONDS} s`,
  );
  const cluster = await startBenchCluster(PROFILE);
  try {
    const events = benchEvents(EVENTS);

    const copyDb = await prepareDatabase(cluster, 'bench_copy', 1);
    const copyParts: Parts = { 'load generator': { pid: process.pid, withChildren: false }, PostgreSQL: { pid: cluster.postmasterPid, withChildren: true } };
    const before = readCpu(copyParts);
    const copy = await copyEvents(copyDb.url, copyDb.workspaceIds[0] as string, events, () => readCpu(copyParts));
    const copyCpu = cpuBetween(before, copy.done);
    const copyRate = EVENTS / copy.seconds;

    const inBatches = (bodies: Iterable<{ body: Buffer; events: number }>): Load => async (url, [key]) => {
      const sender = createSender(url, key as string, CONCURRENCY);
      try {
        return await closedLoop(sender, '/v1/batch', bodies, CONCURRENCY);
      } finally {
        sender.close();
      }
    };
    const batchBody = (batch: readonly unknown[]) => ({ body: Buffer.from(JSON.stringify({ batch })), events: batch.length });
    // Measured once the new ingest process has taken BATCH_WARM_UP_EVENTS other events in batches (not measured): its
    // code compiled and its connections' statements prepared, as in a process that has been running.
    const batches = await overHttp(cluster, 'bench_batches', 1, inBatches(chunk(events, BATCH).map(batchBody)), [
      inBatches(chunk(benchEvents(BATCH_WARM_UP_EVENTS), BATCH).map(batchBody)),
    ]);

    // One workspace, at the rate the specification allows a workspace (§8: 1,000 requests per second), measured once
    // the new ingest process has served the same rate for SINGLE_WARM_UP_SECONDS (its first second is a cold start)
    // and then taken a burst of BURST_EVENTS in batches: the 30 s after it hold the burst's autovacuum and checkpoints.
    function* burst(): Generator<{ body: Buffer; events: number }> {
      for (let sent = 0; sent < BURST_EVENTS; sent += BATCH) yield batchBody(benchEvents(Math.min(BATCH, BURST_EVENTS - sent)));
    }
    const singlesAt = (seconds: number): Load => async (url, [key]) => {
      const sender = createSender(url, key as string, 256);
      const requests = benchEvents(SINGLE_RATE * seconds).map((event) => ({ sender, body: Buffer.from(JSON.stringify(event)) }));
      try {
        return await openLoop('/v1/track', requests, SINGLE_RATE);
      } finally {
        sender.close();
      }
    };
    const singles = await overHttp(cluster, 'bench_singles', 1, singlesAt(SINGLE_SECONDS), [singlesAt(SINGLE_WARM_UP_SECONDS), inBatches(burst())], PROFILE);

    const batchRate = batches.result.events / batches.result.seconds;
    const singleRate = singles.result.events / singles.result.seconds;
    console.log(`\n${'run'.padEnd(40)} ${'events'.padStart(8)} ${'failed'.padStart(6)} ${'per second'.padStart(11)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`);
    console.log(`${'COPY of the same events rows'.padEnd(40)} ${fmt(EVENTS).padStart(8)} ${'0'.padStart(6)} ${fmt(copyRate).padStart(11)}`);
    for (const [name, run] of [[`HTTP, batches of ${BATCH}`, batches.result], [`HTTP, single events at ${SINGLE_RATE}/s`, singles.result]] as const) {
      console.log(`${name.padEnd(40)} ${fmt(run.events).padStart(8)} ${String(run.failed).padStart(6)} ${fmt(run.events / run.seconds).padStart(11)} ${fmt(run.latency.p50).padStart(7)} ${fmt(run.latency.p99).padStart(7)}`);
    }
    const [batchWarmUp] = batches.warmedUp as [LoadResult];
    console.log(
      `\nbatches: the ingest process's first ${fmt(batchWarmUp.events)} events in batches of ${BATCH} before the measured run (not in the table): ` +
        `${fmt(batchWarmUp.events / batchWarmUp.seconds)} events/s, p99 ${fmt(batchWarmUp.latency.p99)} ms, ${fmt(batchWarmUp.failed)} requests failed`,
    );
    const [warmUp, burstRun] = singles.warmedUp as [LoadResult, LoadResult];
    console.log(
      `single events: the ingest process's first ${SINGLE_WARM_UP_SECONDS} s at ${fmt(SINGLE_RATE)}/s before the measured run (not in the table): ` +
        `p50 ${fmt(warmUp.latency.p50)} ms, p99 ${fmt(warmUp.latency.p99)} ms, ${fmt(warmUp.failed)} failed; the slowest 1% by the second they were sent in: ${slowestText(warmUp)}`,
    );
    console.log(
      `then a burst of ${fmt(burstRun.events)} events in batches of ${BATCH} (${fmt(burstRun.failed)} requests failed) at ${fmt(burstRun.events / burstRun.seconds)}/s, p99 ${fmt(burstRun.latency.p99)} ms, before the measured run`,
    );
    console.log(`single events, measured run: the slowest 1% by the second they were sent in: ${slowestText(singles.result)}`);
    console.log('\nCPU seconds by process during each run:');
    console.log(`  COPY: ${cpuText(copyCpu)}`);
    console.log(`  batches: ${cpuText(batches.cpu)}`);
    console.log(`  single events: ${cpuText(singles.cpu)}`);
    // What the machine's load cannot move much: CPU per event. Busy neighbours change the rates, not these.
    const perEvent = (cpu: Record<string, number>, count: number) =>
      Object.entries(cpu)
        .map(([part, seconds]) => `${part} ${fmt((seconds / count) * 1e6)} µs`)
        .join(', ');
    console.log(`\nCPU per event: COPY ${perEvent(copyCpu, EVENTS)}; batches ${perEvent(batches.cpu, EVENTS)}; single events ${perEvent(singles.cpu, singles.result.requests)}`);
    const share = batchRate / copyRate;
    const { failures } = singles.result;
    const rateLimited = failures[429] ?? 0;
    const otherFailures = Object.entries(failures).filter(([status]) => status !== '429');
    const singleOk = singleRate >= SINGLE_RATE * 0.98 && singles.result.latency.p99 < 100 && singles.result.failed === 0;
    console.log(`\nbatches of ${BATCH}: ${fmt(share * 100, 1)}% of COPY (target >= 50%): ${share >= 0.5 ? 'PASS' : 'FAIL'}`);
    console.log(
      `single events, ${fmt(SINGLE_RATE)}/s for ${SINGLE_SECONDS} s to one workspace after a ${SINGLE_WARM_UP_SECONDS} s warm-up and a burst of ${fmt(BURST_EVENTS)} events: ${fmt(singleRate)}/s committed, p99 ${fmt(singles.result.latency.p99)} ms, ` +
        `${fmt(rateLimited)} answered 429${otherFailures.map(([status, count]) => `, ${fmt(count)} ${status === '0' ? 'unanswered' : `answered ${status}`}`).join('')} ` +
        `(target: all ${fmt(SINGLE_RATE)}/s committed, p99 < 100 ms, no 429): ${singleOk ? 'PASS' : 'FAIL'}`,
    );
    if (PROFILE) {
      console.log('\nsingle events, measured run, second by second (BENCH_PROFILE): what PostgreSQL and the kernel did');
      for (const line of watchedText(singles.watched, singles.result.slowestBySecond ?? [])) console.log(line);
      await printStatementProfile(cluster, 'bench_batches');
      await printStatementProfile(cluster, 'bench_singles');
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
