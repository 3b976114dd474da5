import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pullReportRange } from '../../adplatform/ad-stats';
import { LEVELS, metricsFor } from '../../adplatform/ad-stats/report-rows';
import { buildTikTokUrl } from '../../adplatform/tiktok/request';
import { createTikTokClient, TIKTOK_PATHS } from '../../adplatform/tiktok';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createAdStatsRepository } from '../../db/repositories/ad-stats';
import type { AdLevel } from '../../db/types';
import { splitRange, type DateRange } from '../../domain/report-window';
import { BENCH_ADVERTISER, BENCH_DAYS as DAYS, BENCH_TOKEN as TOKEN } from './workload';

/**
 * Both sides follow the statistics workflow's schedule: per 30-day range the three levels at once, each with its first
 * page alone and then three pages at a time.
 *
 * Issue 3 performance target: pulling and storing 90 days × 2,000 ads from the fake must take at most twice as long
 * as the fake serving the same report pages to a bare HTTP client, in the same run.
 *
 *   npx tsc -p bench/ad-stats/tsconfig.json && node bench/ad-stats/dist/bench/ad-stats/run.js [--rounds N]
 *
 * DATABASE_URL: an admin connection (default postgres://postgres@127.0.0.1:5432/postgres); a scratch database is
 * created and dropped. The fake runs in a child process on 127.0.0.1 (TikTok is remote: its CPU is not ours), and
 * both measurements talk to that same process.
 */

interface FakeProcess {
  url: string;
  /** CPU time the fake has used so far, in milliseconds. */
  cpuMs(): Promise<number>;
  stop(): void;
}

function startFakeProcess(): Promise<FakeProcess> {
  const child = fork(path.join(__dirname, 'fake-server.js'), { stdio: 'inherit' });
  const cpuMs = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message) => {
        const { user, system } = (message as { cpuUsage: NodeJS.CpuUsage }).cpuUsage;
        resolve((user + system) / 1000);
      });
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fake TikTok exited with ${code}`)));
    child.once('message', (message) => resolve({ url: (message as { url: string }).url, cpuMs, stop: () => child.disconnect() }));
  });
}

/** CPU time this process has used so far, in milliseconds. */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const ADVERTISER_ID = BENCH_ADVERTISER.advertiserId;
const CONCURRENCY = 3;
const LEVEL_NAMES: AdLevel[] = ['campaign', 'adgroup', 'ad'];

function window(): DateRange[] {
  const end = Date.parse('2026-03-31T00:00:00Z');
  const start = end - (DAYS - 1) * 86_400_000;
  return splitRange({ startDate: new Date(start).toISOString().slice(0, 10), endDate: '2026-03-31' }, 30);
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  }));
}

/** (a) Every report page our pull asks for, fetched by a bare client that only reads the bodies. */
async function bareClient(baseUrl: string, ranges: DateRange[]): Promise<{ pages: number; bytes: number }> {
  let pages = 0;
  let bytes = 0;
  const fetchPage = async (level: AdLevel, range: DateRange, page: number) => {
    const url = buildTikTokUrl(baseUrl, TIKTOK_PATHS.reportIntegrated, {
      advertiser_id: ADVERTISER_ID, report_type: 'BASIC', service_type: 'AUCTION', data_level: LEVELS[level].dataLevel,
      dimensions: [LEVELS[level].idDimension, 'stat_time_day'], metrics: metricsFor(level),
      start_date: range.startDate, end_date: range.endDate, page, page_size: 1000,
    });
    const text = await (await fetch(url, { headers: { 'Access-Token': TOKEN } })).text();
    pages += 1;
    bytes += text.length;
    return text;
  };
  for (const range of ranges) {
    await Promise.all(
      LEVEL_NAMES.map(async (level) => {
        const first = JSON.parse(await fetchPage(level, range, 1)) as { data: { page_info: { total_page: number } } };
        const rest = Array.from({ length: first.data.page_info.total_page - 1 }, (_, i) => i + 2);
        await inParallel(rest, async (page) => void (await fetchPage(level, range, page)));
      }),
    );
  }
  return { pages, bytes };
}

async function main(): Promise<void> {
  const roundsArg = process.argv.indexOf('--rounds');
  const rounds = roundsArg === -1 ? 2 : Number(process.argv[roundsArg + 1]);
  const fake = await startFakeProcess();

  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `signalbox_bench_${randomBytes(4).toString('hex')}`;
  const admin = createDatabase({ url: adminUrl, poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ url: url.toString() });
  try {
    await migrateToLatest(db);
    await db('workspaces').insert({ id: 'ws_bench', name: 'Bench' });
    const adStats = createAdStatsRepository(db);
    const tiktok = createTikTokClient({ baseUrl: fake.url, timeoutMs: 60_000 });
    const ranges = window();
    const ads = BENCH_ADVERTISER.campaigns * BENCH_ADVERTISER.adGroupsPerCampaign * BENCH_ADVERTISER.adsPerAdGroup;
    console.log(`ads ${ads}, days ${DAYS} in ${ranges.length} ranges, levels campaign/adgroup/ad, page size 1000, ${CONCURRENCY} pages at a time`);

    await bareClient(fake.url, ranges.slice(0, 1)); // warm-up: JIT, sockets
    for (let round = 1; round <= rounds; round++) {
      const [fake0, own0] = [await fake.cpuMs(), ownCpuMs()];
      const t0 = performance.now();
      const bare = await bareClient(fake.url, ranges);
      const bareMs = performance.now() - t0;
      const [fake1, own1] = [await fake.cpuMs(), ownCpuMs()];

      const t1 = performance.now();
      let rows = 0;
      let requests = 0;
      for (const range of ranges) {
        await Promise.all(
          LEVEL_NAMES.map(async (level) => {
            const context = { tiktok, adStats, workspaceId: 'ws_bench', advertiserId: ADVERTISER_ID, accessToken: TOKEN, concurrency: CONCURRENCY };
            const result = await pullReportRange(context, level, range);
            rows += result.rows;
            requests += result.requests;
          }),
        );
      }
      const pullMs = performance.now() - t1;
      const [fake2, own2] = [await fake.cpuMs(), ownCpuMs()];
      const stored = Number((await db('ad_stats_daily').count({ n: '*' }))[0]?.n);
      const ratio = pullMs / bareMs;
      const cpu = (fakeMs: number, ownMs: number) => `CPU: fake ${fakeMs.toFixed(0)} ms, this process ${ownMs.toFixed(0)} ms`;
      console.log(
        `round ${round}: bare client ${bare.pages} pages (${(bare.bytes / 1e6).toFixed(1)} MB) in ${bareMs.toFixed(0)} ms (${cpu(fake1 - fake0, own1 - own0)}); ` +
          `pull+store ${requests} pages, ${rows} rows (${stored} stored) in ${pullMs.toFixed(0)} ms (${cpu(fake2 - fake1, own2 - own1)}); ` +
          `ratio ${ratio.toFixed(2)} (target ≤ 2.00: ${ratio <= 2 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
    fake.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
