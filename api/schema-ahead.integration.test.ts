import { migrateDownThrough, migrateToLatest } from '../db/knex';
import { BREAKING_MIGRATIONS_TABLE } from '../db/migration-source';
import { schemaAhead } from '../db/migration-status';
import { createReadinessCheck } from '../db/readiness';
import { createSchemaErrorWatch, SCHEMA_ERRORS_PERSIST_MS } from '../db/schema-errors';
import { closeAll } from '../test/helpers/close-all';
import { createWorkspace } from '../test/helpers/console-client';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { buildTestApp, type TestApp } from '../test/helpers/test-app';

/**
 * A process of this build on a database a newer build migrated: `/readyz` says so as soon as a migration marked as
 * breaking older builds has run, or once ingest's statements keep being refused for their schema, so that the load
 * balancer stops sending it requests it would answer 503. A newer build's migration that only adds leaves it ready.
 */

let testDb: TestDatabase;
const apps: TestApp[] = [];
afterAll(() => closeAll(...apps.map(({ app }) => () => app.close()), () => testDb?.destroy()));

beforeAll(async () => {
  testDb = await createTestDatabase();
});

/** A migration of a build newer than this one, as its `migrate` records it. */
async function newerMigration(name: string, { breaksOlderBuilds }: { breaksOlderBuilds: boolean }): Promise<void> {
  await testDb.db('knex_migrations').insert({ name: `${name}.js`, batch: 99, migration_time: new Date() });
  if (breaksOlderBuilds) await testDb.db(BREAKING_MIGRATIONS_TABLE).insert({ name });
}

async function forgetNewerMigrations(): Promise<void> {
  await testDb.db('knex_migrations').where('name', 'like', '2099%').delete();
  await testDb.db(BREAKING_MIGRATIONS_TABLE).where('name', 'like', '2099%').delete();
}

/** The app as `api/server.ts` builds it, with the schema asked at every probe and refusals timed by `clock`. */
function startApp(clock = { now: 0 }): TestApp {
  const schemaErrors = createSchemaErrorWatch({ now: () => clock.now });
  const checkReadiness = createReadinessCheck({ connectionString: testDb.url, timeoutMs: 2_000, schemaAhead, schemaErrors, schemaRecheckMs: 0 });
  const subject = buildTestApp(testDb.db, { checkReadiness, schemaErrors });
  apps.push(subject);
  return subject;
}

const readyz = async ({ app }: TestApp) => {
  const answer = await app.inject({ method: 'GET', url: '/readyz' });
  return [answer.statusCode, answer.json()];
};

describe('/readyz on a database a newer build migrated', () => {
  afterEach(forgetNewerMigrations);

  it('`migrate` records the migrations this build ships that break the builds before them, and undoing one removes its mark', async () => {
    const breaking = () => testDb.db(BREAKING_MIGRATIONS_TABLE).orderBy('name').pluck('name');
    expect(await breaking()).toEqual(['20261130100000_events_by_day', '20261201100000_events_message_by_hash']);
    await migrateDownThrough(testDb.db, '20261201100000_events_message_by_hash');
    expect(await breaking()).toEqual(['20261130100000_events_by_day']);
    await migrateToLatest(testDb.db);
    expect(await breaking()).toEqual(['20261130100000_events_by_day', '20261201100000_events_message_by_hash']);
  });

  it("stays ready beside a newer build's migration that only adds, and answers 503 schema_ahead once one that breaks this build has run", async () => {
    const subject = startApp();
    expect(await readyz(subject)).toEqual([200, { status: 'ready' }]);

    await newerMigration('20991231000000_adds_a_table', { breaksOlderBuilds: false });
    expect(await readyz(subject)).toEqual([200, { status: 'ready' }]);

    await newerMigration('20991231000100_renames_a_column', { breaksOlderBuilds: true });
    expect(await readyz(subject)).toEqual([
      503,
      {
        status: 'not_ready',
        error: 'schema_ahead',
        message: 'the database was migrated by a newer build (20991231000100_renames_a_column) which this build cannot serve: send requests to the new build and stop this process',
        newerMigrations: ['20991231000100_renames_a_column'],
      },
    ]);

    await forgetNewerMigrations(); // the newer build's migrations undone (`migrate` down)
    expect(await readyz(subject)).toEqual([200, { status: 'ready' }]);
  });

  it("answers 503 once ingest's statements have been refused for their schema for a few seconds, only while the database is ahead", async () => {
    const clock = { now: 0 };
    const subject = startApp(clock);
    const workspaceId = await createWorkspace(subject.app, 'Schema ahead shop');
    const { key } = await subject.repos.apiKeys.create(workspaceId, 'backend');
    let sent = 0;
    const sendPageView = async () => {
      sent += 1;
      const answer = await subject.app.inject({
        method: 'POST',
        url: '/v1/batch',
        headers: { authorization: `Bearer ${key}` },
        payload: { batch: [{ type: 'page', messageId: `page-${sent}`, anonymousId: `visitor-${sent}`, properties: { url: 'https://shop.example/' } }] },
      });
      return [answer.statusCode, answer.json<{ error?: string }>().error];
    };
    /** Refused for `seconds`, an attempt a second, as clients retrying a 503 do. */
    const refusedFor = async (seconds: number) => {
      for (let second = 0; second <= seconds; second += 1) {
        clock.now += 1_000;
        expect(await sendPageView()).toEqual([503, 'storage_error']);
      }
    };
    expect(await sendPageView()).toEqual([200, undefined]);

    // What a newer build's migration that forgot its mark would do: visitors lose the key ingest's upsert names (42P10).
    await testDb.db.raw('ALTER TABLE visitors DROP CONSTRAINT visitors_pkey');
    try {
      // The same refusals with no newer build: every process of this build has the fault, and none is better to send to.
      await refusedFor(SCHEMA_ERRORS_PERSIST_MS / 1_000 + 1);
      expect(await readyz(subject)).toEqual([200, { status: 'ready' }]);

      await newerMigration('20991231000200_visitors_by_day', { breaksOlderBuilds: false });
      expect(await readyz(subject)).toEqual([
        503,
        {
          status: 'not_ready',
          error: 'schema_ahead',
          message:
            "the database was migrated by a newer build (20991231000200_visitors_by_day) and refuses this build's statements (SQLSTATE 42P10): send requests to the new build and stop this process",
          newerMigrations: ['20991231000200_visitors_by_day'],
        },
      ]);
      clock.now += 60_000; // no request reaches it any more: it stays out while the database is ahead
      expect((await readyz(subject))[0]).toBe(503);
    } finally {
      await testDb.db.raw('ALTER TABLE visitors ADD PRIMARY KEY (workspace_id, anonymous_id)');
    }
    await forgetNewerMigrations();
    expect(await readyz(subject)).toEqual([200, { status: 'ready' }]);
  });
});
