import { rollUpConsoleFigures } from '../../activities/console-rollup';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { startConsoleApi } from '../console/timing';
import { startInfrastructure } from '../pipeline/infrastructure';
import { startEmptyStore } from './empty-store';
import { measureSize, type GrowthSettings, type SizeResult } from './measure';
import { parseBatchRounds } from './paired';
import { printConsole, printFootprint, printRates, printVerdicts } from './report';
import { retentionPass } from './retention-pass';
import { daysOfStep, parseSizes, sameDayBaseline } from './sizes';
import { createStoreWorkspaces, growStore, PROPORTIONS } from './store';

/**
 * Issue 30's growth benchmark: the same ingest, pipeline and console loads on a store grown, by COPY, to each of
 * BENCH_GROWTH_SIZES events (spread over 30 days, or those a size names, and six workspaces, half of them in one hot
 * workspace), then the verdicts at the largest size against the empty store, and against the first size stored over
 * fewer days when there is one (sizes.ts). At each size the batches also run on a new empty store beside the grown
 * one, round for round (empty-store.ts): the same comparison without the hour between the first size and the last.
 *
 *   npm run bench:growth    # BENCH_GROWTH_SIZES (0,10000000,40000000), BENCH_GROWTH_BATCH_ROUNDS (6, even), DATABASE_URL (admin connection, default local)
 */
const SIZES = parseSizes(process.env.BENCH_GROWTH_SIZES ?? '0,10000000,40000000');
const SETTINGS: GrowthSettings = {
  batchWarmUpEvents: 10_000,
  batchEvents: Number(process.env.BENCH_GROWTH_BATCH_EVENTS ?? 100_000),
  batchRounds: parseBatchRounds(process.env.BENCH_GROWTH_BATCH_ROUNDS ?? '6'),
  batch: 100,
  senders: Number(process.env.BENCH_GROWTH_SENDERS ?? 4),
  singleRate: 1_000,
  singleSeconds: Number(process.env.BENCH_GROWTH_SINGLE_SECONDS ?? 20),
  conversions: Number(process.env.BENCH_GROWTH_CONVERSIONS ?? 2_000),
  consoleRounds: Number(process.env.BENCH_GROWTH_CONSOLE_ROUNDS ?? 20),
};

async function main(): Promise<void> {
  console.log(`Signalbox growth benchmark: stores of ${SIZES.map((s) => `${s.events.toLocaleString('en-US')} events over ${s.days} days`).join(', ')}; ${PROPORTIONS}`);
  console.log(
    `at each size: ${SETTINGS.batchEvents.toLocaleString('en-US')} events in batches of ${SETTINGS.batch} from ${SETTINGS.senders} senders, ${SETTINGS.batchRounds} rounds (median reported), each paired with one on an empty store beside it, after ${SETTINGS.batchWarmUpEvents.toLocaleString('en-US')} not counted, each from a checkpoint with no autovacuum running; single events at ${SETTINGS.singleRate}/s for ${SETTINGS.singleSeconds} s ` +
      `to the hot workspace; ${SETTINGS.conversions.toLocaleString('en-US')} clicked purchases through the workers to the fake TikTok; the console API's pages ${SETTINGS.consoleRounds} times each`,
  );
  const infra = await startInfrastructure();
  try {
    const repos = createRepositories(infra.db, createSecretBox(infra.secretKey));
    const workspaces = await createStoreWorkspaces(infra.db);
    const { key } = await repos.apiKeys.create(workspaces.hot, 'growth bench');
    const consoleApi = await startConsoleApi(infra.db, infra.databaseUrl, workspaces.hot);
    const results: SizeResult[] = [];
    let loaded = 0;
    try {
      for (const [index, { events: size }] of SIZES.entries()) {
        const started = performance.now();
        await growStore(infra.db, infra.databaseUrl, workspaces, { from: loaded, to: size, days: daysOfStep(SIZES, index) }, console.log);
        loaded = size;
        // What the console-rollup job keeps current in production: the console reads the rollups.
        await rollUpConsoleFigures({ repos });
        console.log(`store at ${size.toLocaleString('en-US')} loaded events (and what earlier sizes' measurements wrote) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
        const retention = await retentionPass(infra, String(size));
        console.log(
          `retention (the hourly schedule's workflow): ${retention.seconds.toFixed(1)} s, PostgreSQL CPU ${retention.postgresCpuSeconds.toFixed(1)} s; ` +
            `${retention.summary.deleted.toLocaleString('en-US')} events deleted, ${retention.summary.stripped.toLocaleString('en-US')} stripped, ` +
            `${retention.summary.conversionsDeleted.toLocaleString('en-US')} conversions deleted, days dropped: ${retention.summary.daysDropped.join(', ') || 'none'}; complete: ${retention.summary.complete}; measuring`,
        );
        const empty = await startEmptyStore(infra);
        try {
          results.push(await measureSize(infra, key, empty, { call: consoleApi.call, workspaceId: workspaces.hot }, size, SETTINGS));
        } finally {
          await empty.stop();
        }
        printRates(results.slice(-1));
      }
    } finally {
      await consoleApi.close();
    }
    printRates(results);
    printFootprint(results);
    printConsole(results);
    printVerdicts(results, sameDayBaseline(SIZES), SIZES);
  } finally {
    await infra.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
