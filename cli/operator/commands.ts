import type { Command } from 'commander';
import type { CliIo } from '../session';

/** `signalbox migrate --status` exits with this code while migrations are pending (1 stays for errors). */
export const PENDING_MIGRATIONS_EXIT_CODE = 3;

type Handler<Options> = (io: CliIo, options: Options) => Promise<void>;

/** The handlers load knex, pg and Temporal's client: only when one of these commands runs, not for every command. */
function lazily<Options>(io: CliIo, load: () => Promise<Handler<Options>>) {
  return async (options: Options) => (await load())(io, options);
}

/**
 * The operator's release steps: they read the services' environment (DATABASE_URL, SECRET_KEY, TEMPORAL_*) and speak
 * to PostgreSQL and Temporal directly, not through the settings API.
 */
export function registerOperatorCommands(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('run the database migrations this code ships, using DATABASE_URL (a release step, before the new code starts)')
    .option('--status', `only list the pending migrations: exit ${PENDING_MIGRATIONS_EXIT_CODE} if there are any, 0 if none`)
    .option('--dry-run', 'only print what each pending migration step would lock, who waits for it and for about how long; run nothing')
    .action(lazily(io, async () => (await import('./migrate.js')).migrate));

  program
    .command('temporal')
    .description("Temporal's side of a deployment")
    .command('setup')
    .description('register the search attributes and create the schedules, where missing (TEMPORAL_*, DATABASE_URL); safe to run again')
    .action(lazily(io, async () => (await import('./temporal-setup.js')).setUpTemporal));

  program
    .command('retention')
    .description("event and conversion retention, which the worker runs every hour")
    .command('run')
    .description('run retention now through its Temporal schedule (TEMPORAL_*) and print what the run dropped, kept and deleted')
    .action(lazily(io, async () => (await import('./retention-run.js')).runRetention));

  program
    .command('secrets')
    .description('secrets stored in the database')
    .command('rotate')
    .description('re-encrypt every sealed column (TikTok tokens, alert webhook URLs) from SECRET_KEY_PREVIOUS to SECRET_KEY; safe to run again, with the services running')
    .action(lazily(io, async () => (await import('./secrets-rotate.js')).rotateSecrets));
}
