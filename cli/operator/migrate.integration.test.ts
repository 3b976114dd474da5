import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createReadinessCheck, SchemaBehindError } from '../../db/readiness';
import { addConversions } from '../../bench/migrate/under-load';
import { migrateUpTo, migrationConfig } from '../../db/knex';
import { pendingMigrations } from '../../db/migration-status';
import { runSignalbox } from '../../test/helpers/cli';
import { closeAll } from '../../test/helpers/close-all';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { PENDING_MIGRATIONS_EXIT_CODE } from './commands';

/** What the code ships, read from the folder (jest runs the sources: the `.ts` files). */
const shipped = readdirSync(path.join(__dirname, '..', '..', 'db', 'migrations'))
  .filter((file) => file.endsWith('.ts'))
  .sort();
const latest = shipped.at(-1) as string;

let testDb: TestDatabase;
const apps: TestApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: false });
});
afterAll(() => closeAll(...apps.map(({ app }) => () => app.close()), () => testDb?.destroy()));

/** The real app on the test database; its readiness check asks again at every probe, to be seen becoming ready. */
function startApp(): TestApp['app'] {
  const pending = () => pendingMigrations(testDb.db);
  const app = buildTestApp(testDb.db, { checkReadiness: createReadinessCheck({ connectionString: testDb.url, timeoutMs: 2_000, pendingMigrations: pending, schemaRecheckMs: 0 }) });
  apps.push(app);
  return app.app;
}

const signalbox = (args: string[], env: NodeJS.ProcessEnv = { DATABASE_URL: testDb.url }) => runSignalbox(args, { env, cwd: __dirname });

const indented = (names: readonly string[]) => names.map((name) => `  ${name}`);

describe('signalbox migrate', () => {
  it('a new database: /readyz names the pending migrations, --status lists them and exits non-zero, migrate runs them, then all is ready', async () => {
    const app = startApp();
    const before = await app.inject({ method: 'GET', url: '/readyz' });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({
      status: 'not_ready',
      error: 'schema_behind',
      message: `database migrations pending: ${shipped.join(', ')}; run \`signalbox migrate\``,
      pendingMigrations: shipped,
    });

    expect(await signalbox(['migrate', '--status'])).toEqual({
      code: PENDING_MIGRATIONS_EXIT_CODE,
      stdout: [`${shipped.length} migration(s) pending:`, ...indented(shipped), 'Run `signalbox migrate`.'].join('\n'),
      stderr: '',
    });
    const plan = [`${shipped.length} migration(s) to run on a store of about 0 events and 0 conversions:`, ...indented(shipped), 'Nothing is stored: no step makes ingest or the pipeline wait.'];
    expect(await signalbox(['migrate', '--dry-run'])).toEqual({ code: 0, stdout: [...plan, 'Nothing was run (--dry-run).'].join('\n'), stderr: '' });
    expect(await signalbox(['migrate'])).toEqual({ code: 0, stdout: [...plan, `Ran ${shipped.length} migration(s):`, ...indented(shipped)].join('\n'), stderr: '' });

    const after = await app.inject({ method: 'GET', url: '/readyz' });
    expect([after.statusCode, after.json()]).toEqual([200, { status: 'ready' }]);
    expect(await signalbox(['migrate', '--status'])).toEqual({ code: 0, stdout: 'The database schema is up to date.', stderr: '' });
    expect(await signalbox(['migrate'])).toEqual({ code: 0, stdout: 'The database schema is up to date: nothing to run.', stderr: '' });
  });

  it('a release with one new migration: a process of the new code is not ready until migrate has run just that one', async () => {
    await testDb.db.migrate.down(migrationConfig);
    const app = startApp();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ error: 'schema_behind', pendingMigrations: [latest] });
    expect((await signalbox(['migrate', '--status'])).stdout).toBe(['1 migration(s) pending:', `  ${latest}`, 'Run `signalbox migrate`.'].join('\n'));

    await testDb.db('knex_migrations_lock').update({ is_locked: 1 });
    const locked = await signalbox(['migrate']);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('Error: the migrations are locked: another `signalbox migrate` is running, or one was killed mid-run');
    await testDb.db('knex_migrations_lock').update({ is_locked: 0 });

    expect((await signalbox(['migrate'])).stdout.split('\n').slice(-2)).toEqual(['Ran 1 migration(s):', `  ${latest}`]);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it("on a store of events and conversions: says what each pending step locks and for how long before it runs, then the back-fill's progress", async () => {
    const store = await createTestDatabase({ migrated: false });
    try {
      await migrateUpTo(store.db, '20261130100000_events_by_day');
      await store.db('workspaces').insert({ id: 'ws_store', name: 'Store' });
      await store.db.raw("INSERT INTO events (workspace_id, message_id, type, user_id, occurred_at, message) SELECT 'ws_store', 'm-' || g, 'track', 'u-1', now(), '{}' FROM generate_series(1, 12) g");
      await addConversions(store.db, 'ws_store', 4);
      const pending = await pendingMigrations(store.db);
      const run = (args: string[]) => signalbox(args, { DATABASE_URL: store.url });

      const planned = await run(['migrate', '--dry-run']);
      expect(planned.code).toBe(0);
      const lines = planned.stdout.split('\n');
      expect(lines[0]).toBe(`${pending.length} migration(s) to run on a store of about 12 events and 4 conversions:`);
      const partitions = lines.indexOf('  20261130100000_events_by_day.ts');
      expect(lines.slice(partitions + 1, partitions + 5)).toEqual([
        "    - conversions: drop the foreign key to events; add the columns of their event's day ('-infinity' for those stored so far, no rewrite) and IDs",
        '      locks ACCESS EXCLUSIVE on conversions and events, a catalog change; ingest and the pipeline wait while it waits for running transactions: 2 s at most, then it tries again (up to 15 times)',
        "    - conversions take their event's user and anonymous IDs, in batches of 5,000 by id, each its own transaction (resumable)",
        expect.stringMatching(
          /^ {6}locks ROW EXCLUSIVE on conversions, ACCESS SHARE on events, and the row locks of one batch; ingest never waits; .*; [\d.]+ s per million conversions: under 1 s here$/,
        ),
      ]);
      expect(lines.at(-1)).toBe('Nothing was run (--dry-run).');
      // Every migration since steps were declared says what it locks.
      expect(planned.stdout).not.toContain('declares no steps');
      expect(await pendingMigrations(store.db)).toEqual(pending);

      const ran = await run(['migrate']);
      expect(ran.stdout).toContain(
        [...lines.slice(0, -1), "  back-fill of conversions' user and anonymous IDs: starting at 0 of 4", "  back-fill of conversions' user and anonymous IDs: 4 of 4 (4 changed)", `Ran ${pending.length} migration(s):`].join('\n'),
      );
    } finally {
      await store.destroy();
    }
  });

  it('refuses a database a newer version migrated, naming the migrations this code does not ship', async () => {
    const newer = '20991231000000_from_a_newer_version.ts';
    await testDb.db('knex_migrations').insert({ name: newer, batch: 99, migration_time: new Date() });
    const result = await signalbox(['migrate']);
    await testDb.db('knex_migrations').where({ name: newer }).delete();
    expect(result).toEqual({ code: 1, stdout: '', stderr: `Error: the database has run migrations this code does not ship (${newer}): a newer version migrated it` });
  });

  it('names a missing or malformed DATABASE_URL', async () => {
    expect(await signalbox(['migrate'], {})).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error: Invalid configuration: DATABASE_URL is required/) });
    expect(await signalbox(['migrate', '--status'], { DATABASE_URL: 'mysql://db' })).toMatchObject({ code: 1, stderr: expect.stringContaining('DATABASE_URL must be a postgres:// URL') });
  });
});

describe('the readiness check of the schema', () => {
  it('asks the database once while an answer naming pending migrations is fresh, and never again once up to date', async () => {
    let asked = 0;
    const counted = (pending: () => Promise<string[]>) => () => {
      asked += 1;
      return pending();
    };
    const behind = createReadinessCheck({ connectionString: testDb.url, timeoutMs: 2_000, pendingMigrations: counted(async () => [latest]), schemaRecheckMs: 3_600_000 });
    for (let probe = 0; probe < 3; probe += 1) await expect(behind()).rejects.toEqual(new SchemaBehindError([latest]));
    expect(asked).toBe(1);

    asked = 0;
    const current = createReadinessCheck({ connectionString: testDb.url, timeoutMs: 2_000, pendingMigrations: counted(() => pendingMigrations(testDb.db)), schemaRecheckMs: 0 });
    for (let probe = 0; probe < 3; probe += 1) await current();
    expect(asked).toBe(1);
  });
});
