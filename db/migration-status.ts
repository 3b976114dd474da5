import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { MIGRATIONS } from './knex';

/** A migration run from the sources (tests) is recorded as `.ts`, from the build as `.js`: the same migration. */
const withoutExtension = (name: string) => name.slice(0, name.length - path.extname(name).length);

/** The migration files this code ships, by the names knex records. */
function shippedMigrations(): string[] {
  return readdirSync(MIGRATIONS.directory)
    .filter((file) => path.extname(file) === MIGRATIONS.extension)
    .sort();
}

/**
 * The migrations this code ships that the database has not run, oldest first. It only reads: unlike knex's
 * `migrate.list` it creates no bookkeeping tables, so a readiness probe may ask it under a role that cannot.
 */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const shipped = shippedMigrations();
  const recorded: string[] = (await db.schema.hasTable(MIGRATIONS.table)) ? await db(MIGRATIONS.table).pluck('name') : [];
  const done = new Set(recorded.map(withoutExtension));
  return shipped.filter((name) => !done.has(withoutExtension(name)));
}
