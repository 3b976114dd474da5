import { migrateEnvSchema, loadEnv } from '../../config/env';
import { createDatabase, migrateToLatest } from '../../db/knex';
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

/** `signalbox migrate [--status]`, on a connection of its own: no deadline cuts a long migration short. */
export const migrate = operatorCommand(async (io, { status = false }: { status?: boolean }) => {
  const env = loadEnv(migrateEnvSchema, io.env);
  // knex names the migration that failed in a warning.
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: 1, logger: { warn: (message) => io.err(message) } });
  try {
    if (status) return printStatus(io, await pendingMigrations(db));
    const ran = await migrateToLatest(db).catch(explainRefusal);
    io.out(ran.length === 0 ? 'The database schema is up to date: nothing to run.' : [`Ran ${ran.length} migration(s):`, ...listed(ran)].join('\n'));
  } finally {
    await db.destroy();
  }
});
