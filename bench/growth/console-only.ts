import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { rollUpConsoleFigures } from '../../activities/console-rollup';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { CONSOLE_SECRET_KEY, consoleCalls, startConsoleApi, timeSideBySide, type CallTiming, type ConsoleCall } from '../console/timing';
import { printConsoleVerdicts } from './report';
import { createStoreWorkspaces, growStore, PROPORTIONS, storeHotWorkspace } from './store';

/**
 * Issue 49's console target alone: the console API's pages on an empty store, a small one and one grown as
 * bench:growth grows them (store.ts: 30 days, six workspaces, half in the hot one), measured side by side, round by
 * round, each call's p95 on the grown store with its verdict against the empty store's (the issue's: ≤ 1.5×) and the
 * small store's (whose pages are as full as the grown one's, so that what is left is the store's size, not a page of
 * rows against an empty one). Without bench:growth's ingest and pipeline rounds, and with a grown store that can be
 * kept and measured again after a change, which a 40,000,000-event load (an hour here) makes worth it.
 *
 *   npm run bench:growth-console   # BENCH_GROWTH_CONSOLE_EVENTS (40000000), BENCH_GROWTH_CONSOLE_SMALL_EVENTS (1000000),
 *                                  # BENCH_GROWTH_CONSOLE_ROUNDS (50), DATABASE_URL (admin connection, default local),
 *                                  # BENCH_GROWTH_CONSOLE_STORE (a database name: kept, and measured again without loading if it exists)
 */
const EVENTS = Number(process.env.BENCH_GROWTH_CONSOLE_EVENTS ?? 40_000_000);
const SMALL_EVENTS = Number(process.env.BENCH_GROWTH_CONSOLE_SMALL_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_GROWTH_CONSOLE_ROUNDS ?? 50);
const KEPT = process.env.BENCH_GROWTH_CONSOLE_STORE;
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (KEPT !== undefined && !/^[a-z_][a-z0-9_]*$/.test(KEPT)) throw new Error(`BENCH_GROWTH_CONSOLE_STORE must be a database name of lower-case letters, digits and _: got "${KEPT}"`);

const urlOf = (name: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

interface OpenStore {
  call: ConsoleCall;
  calls: Awaited<ReturnType<typeof consoleCalls>>;
  close: () => Promise<void>;
}

/** The console API on the store `name`, made, migrated and grown to `events` unless it holds a store already. */
async function openStore(admin: Knex, name: string, events: number): Promise<OpenStore> {
  const exists = (await admin('pg_database').where({ datname: name }).first()) !== undefined;
  if (!exists) await admin.raw(`CREATE DATABASE ${name}`);
  const url = urlOf(name);
  const db = createDatabase({ url });
  await migrateToLatest(db);
  let hot = await storeHotWorkspace(db);
  if (hot === undefined) {
    const workspaces = await createStoreWorkspaces(db);
    hot = workspaces.hot;
    const started = performance.now();
    await growStore(db, url, workspaces, { from: 0, to: events, days: { from: 0, to: 30 } }, console.log);
    console.log(`${name}: ${events.toLocaleString('en-US')} events loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } else {
    console.log(`${name}: a store kept from an earlier run, measured as it is`);
  }
  // What the console-rollup job keeps current in production: the console reads the rollups.
  await rollUpConsoleFigures({ repos: createRepositories(db, createSecretBox(CONSOLE_SECRET_KEY)) });
  const api = await startConsoleApi(db, url, hot);
  return { call: api.call, calls: await consoleCalls(api.call, hot), close: async () => { await api.close(); await db.destroy(); } };
}

async function main(): Promise<void> {
  console.log(
    `Signalbox console on a grown store: ${EVENTS.toLocaleString('en-US')} events over 30 days (${PROPORTIONS}) against an empty store and one of ${SMALL_EVENTS.toLocaleString('en-US')}, side by side; each call ${ROUNDS} times on each`,
  );
  const admin = createDatabase({ url: ADMIN_URL, poolMax: 1 });
  const scratch = `signalbox_growth_console_${randomBytes(4).toString('hex')}`;
  const grownName = KEPT ?? `${scratch}_grown`;
  const stores: OpenStore[] = [];
  try {
    stores.push(await openStore(admin, `${scratch}_empty`, 0), await openStore(admin, `${scratch}_small`, SMALL_EVENTS), await openStore(admin, grownName, EVENTS));
    const [empty, small, grown] = (await timeSideBySide(stores, ROUNDS)) as [CallTiming[], CallTiming[], CallTiming[]];
    const p95Of = (timings: CallTiming[], label: string) => timings.find((t) => t.label === label)?.p95.toFixed(1) ?? '-';
    console.log(`\n${'console API p95 ms (hot workspace)'.padEnd(36)} ${'empty'.padStart(8)} ${'small'.padStart(8)} ${'grown'.padStart(8)}`);
    for (const { label } of grown) console.log(`${label.padEnd(36)} ${p95Of(empty, label).padStart(8)} ${p95Of(small, label).padStart(8)} ${p95Of(grown, label).padStart(8)}`);
    console.log('\nVerdicts (issue 49), the grown store against the empty one:');
    const againstEmpty = printConsoleVerdicts(grown, empty);
    console.log(`console pages within 1.5× of the empty store's: ${againstEmpty ? 'PASS' : 'FAIL'}`);
    console.log(`\nThe grown store against the small one (${SMALL_EVENTS.toLocaleString('en-US')} events):`);
    const againstSmall = printConsoleVerdicts(grown, small);
    console.log(`console pages within 1.5× of the small store's: ${againstSmall ? 'PASS' : 'FAIL'}`);
  } finally {
    for (const store of stores) await store.close();
    for (const made of ['empty', 'small']) await admin.raw(`DROP DATABASE IF EXISTS ${scratch}_${made} WITH (FORCE)`);
    if (KEPT === undefined) await admin.raw(`DROP DATABASE IF EXISTS ${grownName} WITH (FORCE)`);
    await admin.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
