import path from 'node:path';
import type { Knex } from 'knex';
import { MIGRATIONS } from './knex';

/** The tables whose size a step's duration follows: the ones a store grows by. */
export type GrowingTable = 'events' | 'conversions';

/**
 * One step of a migration, as `signalbox migrate` announces it before running: what it holds and who waits for it.
 * Each migration declares its steps beside its SQL (`export const steps`), so the description cannot drift from it.
 */
export interface MigrationStep {
  /** What the step does, in the operator's words. */
  does: string;
  /** e.g. `ACCESS EXCLUSIVE on conversions and events, a catalog change`. */
  locks: string;
  /** Whether ingest and the pipeline wait for it, and how long at most. */
  waits: string;
  /** Seconds per million rows of each table it reads, measured by `npm run bench:migrate` (BENCHMARKS.md); absent: a catalog change. */
  secondsPerMillion?: Partial<Record<GrowingTable, number>>;
}

/** What `signalbox migrate` hands its migrations (knex's `userParams`): where a long step reports its progress; tests and benchmarks migrate without. */
export interface MigrationParams {
  progress?: (line: string) => void;
}

export type StoreSize = Record<GrowingTable, number>;

/** Rows of each table by PostgreSQL's statistics (every partition), counted where a table was never analysed. */
export async function storeSize(db: Knex): Promise<StoreSize> {
  const rows = async (table: GrowingTable): Promise<number> => {
    if (!(await db.schema.hasTable(table))) return 0;
    const { rows: estimate } = await db.raw<{ rows: { rows: number | null }[] }>(
      'SELECT sum(c.reltuples)::float8 AS rows FROM pg_partition_tree(?::regclass) t JOIN pg_class c ON c.oid = t.relid WHERE t.isleaf AND c.reltuples >= 0',
      [table],
    );
    const known = estimate[0]?.rows;
    if (known !== null && known !== undefined) return Math.round(known);
    const counted = await db(table).count<{ count: string }[]>({ count: '*' });
    return Number(counted[0]?.count ?? 0);
  };
  return { events: await rows('events'), conversions: await rows('conversions') };
}

/** The steps a migration file declares; none for the migrations written before steps were declared. */
async function declaredSteps(file: string): Promise<MigrationStep[] | undefined> {
  const module = (await import(path.join(MIGRATIONS.directory, file))) as { steps?: MigrationStep[] };
  return module.steps;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** `; 240 s per million conversions: about 14 s here`, or nothing for a step without figures. */
function estimate(step: MigrationStep, size: StoreSize): string {
  const parts = Object.entries(step.secondsPerMillion ?? {}).map(([table, perMillion]) => ({
    text: `${perMillion} s per million ${table}`,
    seconds: (perMillion * size[table as GrowingTable]) / 1_000_000,
  }));
  if (parts.length === 0) return '';
  const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
  return `; ${parts.map((part) => part.text).join(' + ')}: ${seconds < 1 ? 'under 1 s' : `about ${Math.round(seconds)} s`} here`;
}

/** What each pending migration will hold, for the operator to read before it runs. */
export async function migrationPlan(db: Knex, pending: readonly string[]): Promise<string[]> {
  const size = await storeSize(db);
  const lines = [`${pending.length} migration(s) to run on a store of about ${fmt(size.events)} events and ${fmt(size.conversions)} conversions:`];
  if (size.events === 0 && size.conversions === 0) return [...lines, ...pending.map((name) => `  ${name}`), 'Nothing is stored: no step makes ingest or the pipeline wait.'];
  for (const name of pending) {
    lines.push(`  ${name}`);
    const steps = await declaredSteps(name);
    if (steps === undefined) {
      lines.push('    (declares no steps: what it locks is not described)');
      continue;
    }
    for (const step of steps) lines.push(`    - ${step.does}`, `      locks ${step.locks}; ${step.waits}${estimate(step, size)}`);
  }
  return lines;
}
