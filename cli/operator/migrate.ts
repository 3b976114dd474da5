import { migrateEnvSchema, loadEnv } from '../../config/env';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { migrationPlan, type MigrationParams } from '../../db/migration-plan';
import { pendingMigrations } from '../../db/migration-status';
import { CliError, ExitStatus } from '../errors';
import type { CliIo } from '../session';
import { PENDING_MIGRATIONS_EXIT_CODE } from './commands';
import { operatorCommand } from './operator-command';

const listed = (names: readonly string[]) => names.map((name) => `  ${name}`);

const CORRUPT_DIRECTORY = 'The migration directory is corrupt, the following files are missing: ';

/** What knex refuses with, in the operator's terms. */
function explainRefusal(error: unknown): never {
  const { message } = error as Error;
  if (message === 'Migration table is already locked') {
    throw new CliError(
      'the migrations are locked: another `signalbox migrate` is running, or one was killed mid-run (then, once sure none runs, set knex_migrations_lock.is_locked to 0)',
    );
  }
  if (message.startsWith(CORRUPT_DIRECTORY)) {
    throw new CliError(`the database has run migrations this code does not ship (${message.slice(CORRUPT_DIRECTORY.length)}): a newer version migrated it`);
  }
  throw error;
}

function printStatus(io: CliIo, pending: readonly string[]): void {
  if (pending.length === 0) {
    io.out('The database schema is up to date.');
    return;
  }
  io.out([`${pending.length} migration(s) pending:`, ...listed(pending), 'Run `signalbox migrate`.'].join('\n'));
  throw new ExitStatus(PENDING_MIGRATIONS_EXIT_CODE);
}

/**
 * `signalbox migrate [--status | --dry-run]`, on a connection of its own: no deadline cuts a long migration short.
 * Before running, it prints what each pending step will lock and for about how long (`--dry-run`: only that), then
 * the progress of long back-fills.
 */
export const migrate = operatorCommand(async (io, { status = false, dryRun = false }: { status?: boolean; dryRun?: boolean }) => {
  const env = loadEnv(migrateEnvSchema, io.env);
  // knex names the migration that failed in a warning.
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: 1, logger: { warn: (message) => io.err(message) } });
  try {
    const pending = await pendingMigrations(db);
    if (status) return printStatus(io, pending);
    if (pending.length > 0) io.out((await migrationPlan(db, pending)).join('\n'));
    if (dryRun) return io.out(pending.length === 0 ? 'The database schema is up to date: nothing would run.' : 'Nothing was run (--dry-run).');
    const params: MigrationParams = { progress: (line) => io.out(line) };
    const ran = await migrateToLatest(db.withUserParams(params)).catch(explainRefusal);
    io.out(ran.length === 0 ? 'The database schema is up to date: nothing to run.' : [`Ran ${ran.length} migration(s):`, ...listed(ran)].join('\n'));
  } finally {
    await db.destroy();
  }
});
