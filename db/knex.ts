import path from 'node:path';
import knex, { type Knex } from 'knex';
import { types } from 'pg';

// Money and counts come back as exact strings unless parsed: bigint IDs stay strings, numerics become numbers.
types.setTypeParser(types.builtins.NUMERIC, (value) => Number(value));

const migrationExtension = path.extname(__filename) === '.ts' ? '.ts' : '.js';

export const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(__dirname, 'migrations'),
  loadExtensions: [migrationExtension],
  tableName: 'knex_migrations',
};

export interface DatabaseOptions {
  url: string;
  poolMax?: number;
}

export function createDatabase({ url, poolMax = 10 }: DatabaseOptions): Knex {
  return knex({
    client: 'pg',
    connection: { connectionString: url, application_name: 'signalbox' },
    pool: { min: 0, max: poolMax },
    migrations: migrationConfig,
  });
}

export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}
