import type { Knex } from 'knex';
import type { LoadResult } from '../ingest/load';
import type { CpuSnapshot } from '../pipeline/cpu';

/** What a load cost per event: CPU of the ingest process and of PostgreSQL, and PostgreSQL's block reads. */
export interface PhaseCost {
  ingestCpuUs: number;
  postgresCpuUs: number;
  /** Of PostgreSQL's CPU, the kernel's (system time): reads, writes, page reclaim. */
  postgresSystemCpuUs: number;
  /** Blocks PostgreSQL read from outside its shared buffers (the page cache or the disk), per event. */
  blocksRead: number;
  /** Share of block requests answered from shared buffers. */
  bufferHitRatio: number;
}

/** CPU seconds the processes of `part` used between two snapshots. */
export function partSeconds(before: CpuSnapshot, after: CpuSnapshot, part: string, kind: 'cpuSeconds' | 'systemSeconds' = 'cpuSeconds'): number {
  return [...after].filter(([, p]) => p.part === part).reduce((sum, [pid, p]) => sum + p[kind] - (before.get(pid)?.[kind] ?? 0), 0);
}

async function blockCounts(db: Knex): Promise<{ read: number; hit: number }> {
  const { rows } = await db.raw<{ rows: { read: string; hit: string }[] }>('SELECT blks_read AS read, blks_hit AS hit FROM pg_stat_database WHERE datname = current_database()');
  return { read: Number(rows[0]?.read), hit: Number(rows[0]?.hit) };
}

/** An idle backend reports its counts within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL, pgstat.c). */
export const statsReported = () => new Promise((resolve) => setTimeout(resolve, 11_000));

/**
 * Starts a phase from the same quiet server whatever the size: a checkpoint done (no dirty buffers from the loading or
 * the last phase being written out meanwhile) and no autovacuum running (each waited for, at most two minutes).
 */
export async function quietServer(db: Knex): Promise<void> {
  await db.raw('CHECKPOINT');
  for (let waited = 0; waited < 120; waited += 1) {
    const { rows } = await db.raw<{ rows: { workers: string | number }[] }>("SELECT count(*) AS workers FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'");
    if (Number(rows[0]?.workers) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Runs a load and measures what it cost per event it stored. */
export async function withCost(infra: { db: Knex; cpu(): CpuSnapshot }, run: () => Promise<LoadResult>): Promise<{ load: LoadResult; cost: PhaseCost }> {
  const blocksBefore = await blockCounts(infra.db);
  const cpuBefore = infra.cpu();
  const load = await run();
  const cpuAfter = infra.cpu();
  await statsReported();
  const blocksAfter = await blockCounts(infra.db);
  const read = blocksAfter.read - blocksBefore.read;
  const hit = blocksAfter.hit - blocksBefore.hit;
  return {
    load,
    cost: {
      ingestCpuUs: (partSeconds(cpuBefore, cpuAfter, 'ingest') / load.events) * 1e6,
      postgresCpuUs: (partSeconds(cpuBefore, cpuAfter, 'PostgreSQL') / load.events) * 1e6,
      postgresSystemCpuUs: (partSeconds(cpuBefore, cpuAfter, 'PostgreSQL', 'systemSeconds') / load.events) * 1e6,
      blocksRead: read / load.events,
      bufferHitRatio: hit / Math.max(1, hit + read),
    },
  };
}

/**
 * BENCH_PROFILE=1: PostgreSQL's statements by time spent, from pg_stat_statements (the server must preload it:
 * shared_preload_libraries = 'pg_stat_statements').
 */
export type RelationBlocks = Map<string, { read: number; hit: number }>;

/** Blocks of each table and its indexes (summed over a partitioned table's partitions) read and hit, by every backend. */
async function relationBlocks(db: Knex): Promise<RelationBlocks> {
  const { rows } = await db.raw<{ rows: { relation: string; read: string | number; hit: string | number }[] }>(`
    SELECT coalesce(i.inhparent::regclass::text, s.relname) AS relation,
           sum(coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0)) AS read,
           sum(coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0) + coalesce(toast_blks_hit, 0)) AS hit
    FROM pg_statio_user_tables s LEFT JOIN pg_inherits i ON i.inhrelid = s.relid
    GROUP BY 1`);
  return new Map(rows.map((r) => [r.relation, { read: Number(r.read), hit: Number(r.hit) }]));
}

export const statementProfile = {
  enabled: process.env.BENCH_PROFILE === '1',
  /** Starts a profile; returns the tables' counts so far, for `print`. */
  async reset(db: Knex): Promise<RelationBlocks> {
    await db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.raw('SELECT pg_stat_statements_reset()');
    return relationBlocks(db);
  },
  async print(db: Knex, title: string, relationsBefore: RelationBlocks): Promise<void> {
    const { rows } = await db.raw<{ rows: { query: string; calls: string | number; total_ms: number; mean_ms: number; read_per_call: string | number; hit_per_call: string | number }[] }>(`
      SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query, calls, total_exec_time AS total_ms, mean_exec_time AS mean_ms,
             round(shared_blks_read::numeric / calls, 1) AS read_per_call, round(shared_blks_hit::numeric / calls, 1) AS hit_per_call
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT 6`);
    console.log(`  PostgreSQL statements, ${title} (total ms, calls, mean ms, blocks read / hit per call):`);
    const relations = [...(await relationBlocks(db))].map(([relation, now]) => {
      const before = relationsBefore.get(relation) ?? { read: 0, hit: 0 };
      return { relation, read: now.read - before.read, hit: now.hit - before.hit };
    });
    const busiest = relations.sort((a, b) => b.read + b.hit - (a.read + a.hit)).slice(0, 6);
    console.log(`  blocks read / hit by relation (every backend, autovacuum too): ${busiest.map((r) => `${r.relation} ${r.read} / ${r.hit}`).join(', ')}`);
    for (const r of rows) console.log(`    ${r.total_ms.toFixed(0).padStart(7)} ${String(r.calls).padStart(6)} ${r.mean_ms.toFixed(2).padStart(7)} ${String(r.read_per_call).padStart(6)} / ${String(r.hit_per_call).padStart(7)}  ${r.query}`);
  },
};
