import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/**
 * Where `signalbox migrate` records each migration that builds without it cannot serve: one that renames, drops or
 * replaces what their statements use. Such a migration says so with `export const breaksOlderBuilds = true`; most only
 * add, and keep the previous build working. A process of an older build reads this table in its readiness check
 * (db/readiness.ts) and answers "not ready" from the moment the migration commits, so that the load balancer stops
 * sending it requests it would refuse.
 */
export const BREAKING_MIGRATIONS_TABLE = 'breaking_migrations';

/** A migration file as knex's own file source describes it (`migrate.list` answers these for the pending ones). */
export interface MigrationFile {
  file: string;
  directory: string;
}

interface MigrationModule extends Knex.Migration {
  breaksOlderBuilds?: boolean;
}

/** The migration files of `directory` that run under `extension` (`.ts` from the sources, `.js` from the build), in order. */
export function migrationFiles(directory: string, extension: string): string[] {
  return readdirSync(directory)
    .filter((file) => path.extname(file) === extension)
    .sort();
}

/** A migration is recorded without its extension: one run from the sources (`.ts`) and the build (`.js`) is the same. */
export const migrationName = (file: string) => file.slice(0, file.length - path.extname(file).length);

async function recordBreak(knex: Knex, name: string): Promise<void> {
  await knex.raw(`CREATE TABLE IF NOT EXISTS ${BREAKING_MIGRATIONS_TABLE} (name text PRIMARY KEY, ran_at timestamptz NOT NULL DEFAULT now())`);
  await knex.raw(`INSERT INTO ${BREAKING_MIGRATIONS_TABLE} (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, [name]);
}

/**
 * A migration marked `breaksOlderBuilds` records itself when its `up` has run, on the connection knex gave it: inside
 * its transaction when it has one, so the mark commits with the change. Its `down` removes the mark.
 */
function recordingBreaks(name: string, migration: MigrationModule): Knex.Migration {
  if (migration.breaksOlderBuilds !== true) return migration;
  return {
    ...migration,
    up: async (knex) => {
      await migration.up(knex);
      await recordBreak(knex, name);
    },
    down: async (knex) => {
      await migration.down?.(knex);
      if (await knex.schema.hasTable(BREAKING_MIGRATIONS_TABLE)) await knex(BREAKING_MIGRATIONS_TABLE).where({ name }).delete();
    },
  };
}

/** Knex's migrations from `directory`, as its own file source finds and names them, with the breaks recorded. */
export function migrationSource(directory: string, extension: string): Knex.MigrationSource<MigrationFile> {
  return {
    getMigrations: async () => migrationFiles(directory, extension).map((file) => ({ file, directory })),
    getMigrationName: ({ file }) => file,
    getMigration: async ({ file }) => recordingBreaks(migrationName(file), (await import(path.join(directory, file))) as MigrationModule),
  };
}
