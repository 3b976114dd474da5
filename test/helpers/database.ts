import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseTimeoutEnvSchema } from '../../config/env';
import { createDatabase, databaseTimeouts, migrateToLatest } from '../../db/knex';
import { unregisteredSealedColumns } from './sealed-values';

export interface TestDatabase {
  db: Knex;
  url: string;
  destroy(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined) throw new Error('TEST_DATABASE_URL is not set: run integration tests through jest --selectProjects integration');
  return url;
}

/**
 * Before the database is dropped: whatever the test wrote, no value sealed with SECRET_KEY sits in a column the
 * registry (db/sealed-columns.ts) does not list, where rotation would skip it.
 */
async function checkSealedColumns(db: Knex): Promise<Error | undefined> {
  const unregistered = await unregisteredSealedColumns(db);
  if (unregistered.length === 0) return undefined;
  return new Error(`values sealed with SECRET_KEY were written to ${unregistered.join(', ')}, which db/sealed-columns.ts does not list: add them there (rotation and the docs read it)`);
}

/**
 * A fresh, migrated database on the test server, dropped by `destroy()`, opened with the deadlines the services run
 * with by default (a code path that only works without them would pass here and fail in production). With
 * `migrated: false` it stays empty, as a new production database is before `signalbox migrate`. `destroy()` fails
 * when a sealed value was written to a column the registry of sealed columns does not list.
 */
export async function createTestDatabase({ migrated = true }: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `signalbox_test_${randomBytes(6).toString('hex')}`;
  const admin = createDatabase({ url: adminUrl(), poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const db = createDatabase({ url: url.toString(), timeouts: databaseTimeouts(databaseTimeoutEnvSchema.parse({})) });
  if (migrated) await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    async destroy() {
      const sealedCheck = await checkSealedColumns(db).catch((error: unknown) => error as Error);
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
      if (sealedCheck !== undefined) throw sealedCheck;
    },
  };
}
