import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseTimeoutEnvSchema } from '../../config/env';
import { createDatabase, databaseTimeouts, migrateToLatest } from '../../db/knex';

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
 * A fresh, migrated database on the test server, dropped by `destroy()`, opened with the deadlines the services run
 * with by default (a code path that only works without them would pass here and fail in production). With
 * `migrated: false` it stays empty, as a new production database is before `signalbox migrate`.
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
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
