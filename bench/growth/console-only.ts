import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { rollUpConsoleFigures } from '../../activities/console-rollup';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { CONSOLE_SECRET_KEY, consoleCalls, startConsoleApi, timeCalls, type CallTiming } from '../console/timing';
import { printConsoleVerdicts } from './report';
import { createStoreWorkspaces, growStore, PROPORTIONS, storeHotWorkspace } from './store';

/**
 * Issue 49's console target alone: the console API's pages on an empty store and on one grown as bench:growth grows
 * it (store.ts: 30 days, six workspaces, half in the hot one), each call's p95 side by side with its verdict
 * (≤ 1.5× empty). Without bench:growth's ingest and pipeline rounds, and with a grown store that can be kept and
 * measured again after a change, which a 40,000,000-event load (most of an hour here) makes worth it.
 *
 *   npm run bench:growth-console   # BENCH_GROWTH_CONSOLE_EVENTS (40000000), BENCH_GROWTH_CONSOLE_ROUNDS (20),
 *                                  # BENCH_GROWTH_CONSOLE_STORE (a database name: kept, and measured again without loading if it exists),
 *                                  # DATABASE_URL (admin connection, default local)
 */
const EVENTS = Number(process.env.BENCH_GROWTH_CONSOLE_EVENTS ?? 40_000_000);
const ROUNDS = Number(process.env.BENCH_GROWTH_CONSOLE_ROUNDS ?? 20);
const KEPT = process.env.BENCH_GROWTH_CONSOLE_STORE;
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (KEPT !== undefined && !/^[a-z_][a-z0-9_]*$/.test(KEPT)) throw new Error(`BENCH_GROWTH_CONSOLE_STORE must be a database name of lower-case letters, digits and _: got "${KEPT}"`);

const urlOf = (name: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

/** The console's calls on the store `name` (made, migrated and grown to `events` unless it holds a store already). */
async function measureStore(admin: Knex, name: string, events: number): Promise<CallTiming[]> {
  const exists = (await admin('pg_database').where({ datname: name }).first()) !== undefined;
  if (!exists) await admin.raw(`CREATE DATABASE ${name}`);
  const url = urlOf(name);
  const db = createDatabase({ url });
  try {
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
    try {
      return await timeCalls(api.call, await consoleCalls(api.call, hot), ROUNDS);
    } finally {
      await api.close();
    }
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  console.log(`Signalbox console on a grown store: ${EVENTS.toLocaleString('en-US')} events over 30 days (${PROPORTIONS}) against an empty store; each call ${ROUNDS} times`);
  const admin = createDatabase({ url: ADMIN_URL, poolMax: 1 });
  const scratch = `signalbox_growth_console_${randomBytes(4).toString('hex')}`;
  const grownName = KEPT ?? `${scratch}_grown`;
  try {
    const empty = await measureStore(admin, `${scratch}_empty`, 0);
    const grown = await measureStore(admin, grownName, EVENTS);
    console.log(`\n${'console API p95 ms (hot workspace)'.padEnd(36)} ${'empty'.padStart(8)} ${'grown'.padStart(8)}`);
    for (const call of grown) {
      const then = empty.find((e) => e.label === call.label);
      console.log(`${call.label.padEnd(36)} ${(then === undefined ? '-' : then.p95.toFixed(1)).padStart(8)} ${call.p95.toFixed(1).padStart(8)}`);
    }
    console.log('\nVerdicts (issue 49), the grown store against the empty one:');
    const all = printConsoleVerdicts(grown, empty);
    console.log(`console pages within 1.5× of the empty store's: ${all ? 'PASS' : 'FAIL'}`);
  } finally {
    await admin.raw(`DROP DATABASE IF EXISTS ${scratch}_empty WITH (FORCE)`);
    if (KEPT === undefined) await admin.raw(`DROP DATABASE IF EXISTS ${grownName} WITH (FORCE)`);
    await admin.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
