import type { Knex } from 'knex';
import { MIGRATIONS } from './knex';
import { BREAKING_MIGRATIONS_TABLE, migrationFiles, migrationName } from './migration-source';

/** The migration files this code ships, by the names knex records. */
const shippedMigrations = () => migrationFiles(MIGRATIONS.directory, MIGRATIONS.extension);

/**
 * The migrations this code ships that the database has not run, oldest first. It only reads: unlike knex's
 * `migrate.list` it creates no bookkeeping tables, so a readiness probe may ask it under a role that cannot.
 */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const shipped = shippedMigrations();
  const recorded: string[] = (await db.schema.hasTable(MIGRATIONS.table)) ? await db(MIGRATIONS.table).pluck('name') : [];
  const done = new Set(recorded.map(migrationName));
  return shipped.filter((name) => !done.has(migrationName(name)));
}

/** What the database ran that this code does not ship: a newer build migrated it. */
export interface SchemaAhead {
  /** The migrations this code does not ship, oldest first, without their extension. */
  newer: string[];
  /** Of those, the ones that builds without them cannot serve (`breaksOlderBuilds`, db/migration-source.ts). */
  breaking: string[];
}

/** Runs one read-only statement: a pool's `raw`, or a readiness probe's connection of its own. */
export type ReadRows = (sql: string) => Promise<{ rows: { name: string }[] }>;

/** Which migrations the database ran beyond this code's, and which of them break it. Reads only; no table needs to exist. */
export async function schemaAhead(read: ReadRows): Promise<SchemaAhead> {
  const shipped = new Set(shippedMigrations().map(migrationName));
  const unshipped = (rows: { name: string }[]) => rows.map(({ name }) => migrationName(name)).filter((name) => !shipped.has(name)).sort();
  const { rows: tables } = await read(
    `SELECT name FROM unnest(ARRAY['${MIGRATIONS.table}', '${BREAKING_MIGRATIONS_TABLE}']) AS name WHERE to_regclass(name) IS NOT NULL`,
  );
  const exists = (table: string) => tables.some(({ name }) => name === table);
  const newer = exists(MIGRATIONS.table) ? unshipped((await read(`SELECT name FROM ${MIGRATIONS.table}`)).rows) : [];
  if (newer.length === 0 || !exists(BREAKING_MIGRATIONS_TABLE)) return { newer, breaking: [] };
  return { newer, breaking: unshipped((await read(`SELECT name FROM ${BREAKING_MIGRATIONS_TABLE}`)).rows) };
}
