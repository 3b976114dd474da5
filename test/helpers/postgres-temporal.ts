import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDatabase } from '../../db/knex';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { cliCacheDir, locateTemporalCli } from '../../devstack/temporal-cli';
import { waitUntilServing } from '../../devstack/temporal-dev-server';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const BUILD = 'devstack/build-temporal-server.sh';
/** The server's configuration (OPERATIONS.md runs the same file), read from the environment. */
const CONFIG_DIR = 'devstack/temporal-server';
const CONFIG_ENV = 'postgres';

/** Temporal keeps each service's membership port in a smallint column: a higher one stops the server at start. */
const HIGHEST_MEMBERSHIP_PORT = 32_767;

/** The ports the configuration takes from the environment: the frontend's first, every service's own. */
const PORT_SETTINGS = [
  'FRONTEND_GRPC_PORT',
  'FRONTEND_MEMBERSHIP_PORT',
  'FRONTEND_HTTP_PORT',
  'HISTORY_GRPC_PORT',
  'HISTORY_MEMBERSHIP_PORT',
  'MATCHING_GRPC_PORT',
  'MATCHING_MEMBERSHIP_PORT',
  'WORKER_GRPC_PORT',
  'WORKER_MEMBERSHIP_PORT',
] as const;

export interface PostgresTemporal {
  address: string;
  stop(): Promise<void>;
}

async function versionOf(binary: string): Promise<string> {
  const { stdout } = await run(binary, ['--version']);
  return stdout.trim();
}

/**
 * The server and SQL tool built by `devstack/build-temporal-server.sh`, checked to be the server version the Temporal
 * CLI embeds, and that version's PostgreSQL schema.
 */
async function locateServerBuild(): Promise<{ server: string; sqlTool: string; schema: string; cli: string }> {
  const server = path.join(cliCacheDir(), 'temporal-server');
  const sqlTool = path.join(cliCacheDir(), 'temporal-sql-tool');
  const missing = [server, sqlTool].filter((binary) => !existsSync(binary));
  if (missing.length > 0) throw new Error(`${missing.join(' and ')} not found: build them with ${BUILD} (Go and its module proxy; .ci/run does it)`);
  const cli = await locateTemporalCli({ projectToolsDir: path.join(ROOT, '.tools', 'bin'), allowBuild: false, allowSdkDownload: false, log: () => undefined });
  if (cli.kind !== 'binary') throw new Error('the Temporal CLI is needed to create the namespace');
  const wanted = /\(Server (\S+),/.exec(await versionOf(cli.path))?.[1];
  const built = /version (\S+)$/.exec(await versionOf(server))?.[1];
  if (built === undefined || built !== wanted) throw new Error(`${server} is Temporal ${built ?? '(unknown)'}, the CLI's server is ${wanted ?? '(unknown)'}: run ${BUILD} again`);
  const schema = path.join(cliCacheDir(), '..', 'temporal-schema', `v${built}`, 'postgresql', 'v12');
  if (!existsSync(schema)) throw new Error(`${schema} not found: run ${BUILD} again`);
  return { server, sqlTool, schema, cli: cli.path };
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * A Temporal server as production runs it, on PostgreSQL: two new databases on the test server (TEST_DATABASE_URL)
 * given their schema by temporal-sql-tool, the server with every service in one process, and the `default` namespace
 * created with the CLI, as OPERATIONS.md does by hand. `stop()` drops the databases.
 */
export async function startPostgresTemporal(): Promise<PostgresTemporal> {
  const build = await locateServerBuild();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl === undefined) throw new Error('TEST_DATABASE_URL is not set: run integration tests through jest --selectProjects integration');
  const postgres = new URL(adminUrl);
  const name = `temporal_${randomBytes(6).toString('hex')}`;
  const databases = { history: name, visibility: `${name}_visibility` };
  const connection = { POSTGRES_SEEDS: postgres.hostname, DB_PORT: postgres.port || '5432', POSTGRES_USER: decodeURIComponent(postgres.username), POSTGRES_PWD: decodeURIComponent(postgres.password) };
  const sqlTool = (database: string, ...command: string[]) =>
    run(build.sqlTool, ['--plugin', 'postgres12', '--ep', connection.POSTGRES_SEEDS, '-p', connection.DB_PORT, '-u', connection.POSTGRES_USER, '--pw', connection.POSTGRES_PWD, '--db', database, ...command]);

  // The server's log, to tell why it did not start.
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-temporal-server-'));
  const logFile = path.join(logDir, 'server.log');
  let ports: ReservedPort[] = [];
  let server: ChildProcess | undefined;
  const killOnExit = () => server?.kill('SIGKILL');
  async function stop(): Promise<void> {
    if (server !== undefined) {
      server.kill('SIGTERM');
      await exitOf(server);
    }
    process.off('exit', killOnExit);
    for (const reserved of ports) reserved.release();
    const admin = createDatabase({ url: adminUrl as string, poolMax: 1 });
    for (const database of Object.values(databases)) await admin.raw(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.destroy();
    rmSync(logDir, { recursive: true, force: true });
  }

  try {
    for (const [database, schema] of [
      [databases.history, 'temporal'],
      [databases.visibility, 'visibility'],
    ] as const) {
      await sqlTool(database, 'create-database');
      await sqlTool(database, 'setup-schema', '-v', '0.0');
      await sqlTool(database, 'update-schema', '-d', path.join(build.schema, schema, 'versioned'));
    }
    ports = await Promise.all(PORT_SETTINGS.map((setting) => reservePort('127.0.0.1', setting.endsWith('_MEMBERSHIP_PORT') ? HIGHEST_MEMBERSHIP_PORT : undefined)));
    const portEnv = Object.fromEntries(PORT_SETTINGS.map((setting, index) => [setting, String(ports[index]?.port)]));
    const address = `127.0.0.1:${portEnv.FRONTEND_GRPC_PORT}`;
    process.on('exit', killOnExit);
    const log = openSync(logFile, 'w');
    server = spawn(build.server, ['--root', ROOT, '--config', CONFIG_DIR, '--env', CONFIG_ENV, '--allow-no-auth', 'start'], {
      env: { ...process.env, ...connection, ...portEnv, DBNAME: databases.history, VISIBILITY_DBNAME: databases.visibility, TEMPORAL_LOG_LEVEL: 'error', TEMPORAL_VERSION_CHECK_DISABLED: '1' },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    await waitUntilServing(address, server, 120_000).catch((error: unknown) => {
      const lastLines = readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).map((line) => line.slice(0, 400));
      throw new Error([`${(error as Error).message}; the end of its log:`, ...lastLines].join('\n'));
    });
    await run(build.cli, ['operator', 'namespace', 'create', '--address', address, '--namespace', 'default', '--retention', '24h']);
    return { address, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
