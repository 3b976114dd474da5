import type { Knex } from 'knex';
import { migrationConfig } from './knex';

/** Names of the migrations not run yet on this database. */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list(migrationConfig)) as [unknown[], { file: string }[]];
  return pending.map((migration) => migration.file);
}
