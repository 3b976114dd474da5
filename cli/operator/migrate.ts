import { migrateEnvSchema, loadEnv } from '../../config/env';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { pendingMigrations } from '../../db/migration-status';
import { CliError, ExitStatus } from '../errors';
import type { CliIo } from '../session';
import { PENDING_MIGRATIONS_EXIT_CODE } from './commands';
import { operatorCommand } from './operator-command';

const listed = (names: readonly string[]) => names.map((name) => `  ${name}`);

/** knex's lock: another migrate holds it, or one was killed while holding it. */
function explainLock(error: unknown): never {
  if ((error as Error).message !== 'Migration table is already locked') throw error;
  throw new CliError(
    'the migrations are locked: another `signalbox migrate` is running, or one was killed mid-run (then, once sure none runs, set knex_migrations_lock.is_locked to 0)',
  );
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
    const ran = await migrateToLatest(db).catch(explainLock);
    io.out(ran.length === 0 ? 'The database schema is up to date: nothing to run.' : [`Ran ${ran.length} migration(s):`, ...listed(ran)].join('\n'));
  } finally {
    await db.destroy();
  }
});
