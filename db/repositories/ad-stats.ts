import type { Knex } from 'knex';
import type { Client } from 'pg';
import type { AdLevel } from '../types';

/** A campaign, ad group or ad as TikTok names it; a null `name` or `status` keeps what is stored. */
export interface AdEntityInput {
  level: AdLevel;
  entityId: string;
  advertiserId: string;
  campaignId: string | null;
  adgroupId: string | null;
  name: string | null;
  status: string | null;
}

/** One entity on one day as TikTok reports it. Money as exact decimal strings, counts as integers, null = not reported. */
export interface DailyStatInput {
  level: AdLevel;
  entityId: string;
  /** `YYYY-MM-DD` in the advertiser's time zone. */
  statDate: string;
  advertiserId: string;
  campaignId: string;
  adgroupId: string | null;
  spend: string | null;
  impressions: number | null;
  clicks: number | null;
  conversions: number | null;
  conversionValue: string | null;
}

/**
 * One row per key (an upsert may touch a row only once; a repeated key keeps its last row), sorted so that
 * concurrent upserts (pages of one pull share an entity at their boundary) lock rows in the same order.
 */
function uniqueByKey<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const unique = new Map<string, T>();
  for (const row of rows) unique.set(key(row), row);
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

function compareDailyKeys(a: DailyStatInput, b: DailyStatInput): number {
  if (a.level !== b.level) return a.level < b.level ? -1 : 1;
  if (a.entityId !== b.entityId) return a.entityId < b.entityId ? -1 : 1;
  return a.statDate < b.statDate ? -1 : a.statDate > b.statDate ? 1 : 0;
}

/** `uniqueByKey` for daily rows; a report page usually arrives in key order already, and is then taken as it is. */
function dailyInKeyOrder(rows: readonly DailyStatInput[]): readonly DailyStatInput[] {
  for (let i = 1; i < rows.length; i++) {
    if (compareDailyKeys(rows[i - 1] as DailyStatInput, rows[i] as DailyStatInput) >= 0) {
      return uniqueByKey(rows, (r) => `${r.level}\0${r.entityId}\0${r.statDate}`);
    }
  }
  return rows;
}

/** Characters PostgreSQL's array syntax would misread in an unquoted element. */
const ARRAY_SYNTAX = /[{}",\\\s]/;

/** One element of an array literal: quoted when it is empty, NULL as a word, or holds array syntax. */
function arrayElement(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  const plain = value !== '' && !ARRAY_SYNTAX.test(value) && !(value.length === 4 && value.toLowerCase() === 'null');
  return plain ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** An array literal (`{7501,7502}`), built element by element, for a text parameter cast to an array type. */
class ArrayLiteral {
  private readonly elements: string[] = [];

  add(value: string | number | null): void {
    this.elements.push(arrayElement(value));
  }

  toString(): string {
    return `{${this.elements.join(',')}}`;
  }
}

const RUN_COLUMNS = ['level', 'entity_id', 'advertiser_id', 'campaign_id', 'adgroup_id'] as const;
const DAY_COLUMNS = ['run', 'stat_date', 'spend', 'impressions', 'clicks', 'conversions', 'conversion_value'] as const;

/**
 * A page's rows as array parameters, one per column of RUN_COLUMNS then DAY_COLUMNS: PostgreSQL reads arrays
 * (`unnest`) at less than half the CPU it spends on a JSON document of the same rows. A page lists an entity's days
 * one after another, so a run of rows with the same entity and parents sends those once and each day names its run:
 * a third of the bytes to send and to read.
 */
function pageParameters(rows: readonly DailyStatInput[]): string[] {
  const runs = { level: new ArrayLiteral(), entityId: new ArrayLiteral(), advertiserId: new ArrayLiteral(), campaignId: new ArrayLiteral(), adgroupId: new ArrayLiteral() };
  const days = {
    run: new ArrayLiteral(),
    statDate: new ArrayLiteral(),
    spend: new ArrayLiteral(),
    impressions: new ArrayLiteral(),
    clicks: new ArrayLiteral(),
    conversions: new ArrayLiteral(),
    conversionValue: new ArrayLiteral(),
  };
  let previous: DailyStatInput | undefined;
  let run = 0;
  for (const r of rows) {
    const p = previous;
    if (p === undefined || r.level !== p.level || r.entityId !== p.entityId || r.advertiserId !== p.advertiserId || r.campaignId !== p.campaignId || r.adgroupId !== p.adgroupId) {
      run += 1;
      runs.level.add(r.level);
      runs.entityId.add(r.entityId);
      runs.advertiserId.add(r.advertiserId);
      runs.campaignId.add(r.campaignId);
      runs.adgroupId.add(r.adgroupId);
    }
    days.run.add(run);
    days.statDate.add(r.statDate);
    days.spend.add(r.spend);
    days.impressions.add(r.impressions);
    days.clicks.add(r.clicks);
    days.conversions.add(r.conversions);
    days.conversionValue.add(r.conversionValue);
    previous = r;
  }
  return [...Object.values(runs), ...Object.values(days)].map(String);
}

function entitiesJson(input: readonly AdEntityInput[]): string {
  const rows = uniqueByKey(input, (r) => `${r.level}\0${r.entityId}`);
  return JSON.stringify(
    rows.map((r) => ({ level: r.level, entity_id: r.entityId, advertiser_id: r.advertiserId, campaign_id: r.campaignId, adgroup_id: r.adgroupId, name: r.name, status: r.status })),
  );
}

const FIGURES = ['advertiser_id', 'campaign_id', 'adgroup_id', 'spend', 'impressions', 'clicks', 'conversions', 'conversion_value'];
const COLUMNS = ['level', 'entity_id', 'stat_date', ...FIGURES];
const qualified = (alias: string, columns: readonly string[]) => columns.map((column) => `${alias}.${column}`).join(', ');

/**
 * Names and status by entity; a null keeps what is stored. Every report page repeats the names of its entities, and
 * pages fetched at once share the entity at their boundary: an entity whose stored values would not change is left
 * out before the upsert, which would otherwise lock it and make those pages wait for each other. The LATERAL … LIMIT 1
 * keeps that a primary-key lookup per entity. `updated_at` is when the values last changed.
 */
const upsertEntitiesSql = (workspace: string, entitiesJsonb: string) => {
  const merged = (incoming: string, current: string) => [
    `${incoming}.advertiser_id`,
    `coalesce(${incoming}.campaign_id, ${current}.campaign_id)`,
    `coalesce(${incoming}.adgroup_id, ${current}.adgroup_id)`,
    `coalesce(${incoming}.name, ${current}.name)`,
    `coalesce(${incoming}.status, ${current}.status)`,
  ];
  const columns = ['advertiser_id', 'campaign_id', 'adgroup_id', 'name', 'status'];
  return `INSERT INTO ad_entities AS e (workspace_id, level, entity_id, ${columns.join(', ')})
  SELECT ${workspace}, r.level, r.entity_id, ${qualified('r', columns)}
  FROM jsonb_to_recordset(${entitiesJsonb}) AS r(level text, entity_id text, advertiser_id text, campaign_id text, adgroup_id text, name text, status text)
  LEFT JOIN LATERAL (
    SELECT true AS found, ${qualified('s', columns)} FROM ad_entities s WHERE s.workspace_id = ${workspace} AND s.level = r.level AND s.entity_id = r.entity_id LIMIT 1
  ) stored ON true
  WHERE stored.found IS NULL OR (${qualified('stored', columns)}) IS DISTINCT FROM (${merged('r', 'stored').join(', ')})
  ORDER BY r.level, r.entity_id
  ON CONFLICT (workspace_id, level, entity_id) DO UPDATE SET
    ${columns.map((column, n) => `${column} = ${merged('excluded', 'e')[n]}`).join(', ')}, updated_at = now()
  WHERE (${qualified('e', columns)}) IS DISTINCT FROM (${merged('excluded', 'e').join(', ')})`;
};

/**
 * A whole page in one statement, hence one transaction and one round trip: $1 the workspace, then the rows' arrays
 * (pageParameters), then the entities as JSON.
 *
 * - `stored`: the stored rows of the page's entities between their first and last day on the page: one index range
 *   scan per entity (a page holds a few dozen), much cheaper than a lookup per row. OFFSET 0 keeps each scan a
 *   parameterised index scan whatever the planner's statistics say (a join would be free to read the whole table).
 * - `fresh`: a page with no stored row there (a first pull, a backfill) is a plain INSERT, half the work of
 *   INSERT … ON CONFLICT. Should a concurrent pull store one of these keys meanwhile, the primary key refuses the
 *   statement and the page is stored again with `insertFresh` false.
 * - `merged`: otherwise, insert or overwrite (entity, day) rows, so that a re-pull corrects figures and never
 *   duplicates them. Unchanged rows (most of an hourly re-pull) are left out before the upsert, which would otherwise
 *   lock and log each of them; the rest go in key order, so that concurrent pages lock rows in the same order (OFFSET 0
 *   sorts only those rather than the whole page). `pulled_at` is when figures last changed.
 * - Statistics can always be pulled again, so the commit does not wait for the WAL flush (`synchronous_commit` off,
 *   for this transaction only): a crash loses at most the last few pages of a pull, which the next pull rewrites.
 */
function storePageSql(insertFresh: boolean): string {
  const dayTypes = ['int', 'date', 'numeric', 'bigint', 'bigint', 'bigint', 'numeric'];
  const param = (n: number) => `$${n + 2}`;
  return `WITH incoming AS MATERIALIZED (
  SELECT r.level COLLATE "C" AS level, r.entity_id COLLATE "C" AS entity_id, d.stat_date, ${qualified('r', RUN_COLUMNS.slice(2))},
    ${qualified('d', DAY_COLUMNS.slice(2))}
  FROM unnest(${DAY_COLUMNS.map((_, n) => `${param(RUN_COLUMNS.length + n)}::${dayTypes[n]}[]`).join(', ')}) AS d(${DAY_COLUMNS.join(', ')})
  JOIN unnest(${RUN_COLUMNS.map((_, n) => `${param(n)}::text[]`).join(', ')}) WITH ORDINALITY AS r(${RUN_COLUMNS.join(', ')}, run) ON r.run = d.run
), stored AS MATERIALIZED (
  SELECT ${qualified('o', COLUMNS)}
  FROM (SELECT level, entity_id, min(stat_date) AS first_day, max(stat_date) AS last_day FROM incoming GROUP BY level, entity_id) span
  CROSS JOIN LATERAL (
    SELECT ${qualified('o', COLUMNS)} FROM ad_stats_daily o
    WHERE o.workspace_id = $1 AND o.level = span.level AND o.entity_id = span.entity_id AND o.stat_date BETWEEN span.first_day AND span.last_day
    OFFSET 0
  ) o
), ${
    insertFresh
      ? `fresh AS (
  INSERT INTO ad_stats_daily (workspace_id, ${COLUMNS.join(', ')})
  SELECT $1, ${COLUMNS.join(', ')} FROM incoming WHERE NOT EXISTS (SELECT FROM stored)
), `
      : ''
  }merged AS (
  INSERT INTO ad_stats_daily AS s (workspace_id, ${COLUMNS.join(', ')})
  SELECT $1, ${COLUMNS.join(', ')} FROM (
    SELECT ${qualified('i', COLUMNS)}
    FROM incoming i LEFT JOIN stored o ON o.level = i.level AND o.entity_id = i.entity_id AND o.stat_date = i.stat_date
    WHERE ${insertFresh ? 'EXISTS (SELECT FROM stored) AND ' : ''}(o.entity_id IS NULL OR (${qualified('o', FIGURES)}) IS DISTINCT FROM (${qualified('i', FIGURES)}))
    OFFSET 0
  ) changed
  ORDER BY level, entity_id, stat_date
  ON CONFLICT (workspace_id, level, entity_id, stat_date) DO UPDATE SET
    ${FIGURES.map((column) => `${column} = excluded.${column}`).join(', ')}, pulled_at = now()
  WHERE (${qualified('s', FIGURES)}) IS DISTINCT FROM (${qualified('excluded', FIGURES)})
), named AS (
  ${upsertEntitiesSql('$1', `${param(RUN_COLUMNS.length + DAY_COLUMNS.length)}::jsonb`)}
)
SELECT set_config('synchronous_commit', 'off', true)`;
}

/** Prepared once per connection: planning this statement would cost PostgreSQL about a millisecond per page. */
const STORE_PAGE = { name: 'ad-stats-store-page', text: storePageSql(true) };
const STORE_PAGE_UPSERT = { name: 'ad-stats-store-page-upsert', text: storePageSql(false) };

function isStoredKeyConflict(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'ad_stats_daily_pkey';
}

export function createAdStatsRepository(db: Knex) {
  const repository = {
    async upsertEntities(workspaceId: string, input: readonly AdEntityInput[], executor: Knex = db): Promise<void> {
      if (input.length === 0) return;
      await executor.raw(upsertEntitiesSql(':workspace', 'CAST(:entities AS jsonb)'), { workspace: workspaceId, entities: entitiesJson(input) });
    },

    /**
     * One report page: its daily rows (inserted, or overwritten where figures changed) and the names it carried, in
     * one transaction (see storePageSql). Returns the number of distinct (entity, day) rows.
     */
    async storePage(workspaceId: string, stats: readonly DailyStatInput[], entities: readonly AdEntityInput[]): Promise<number> {
      const rows = dailyInKeyOrder(stats);
      const values = [workspaceId, ...pageParameters(rows), entitiesJson(entities)];
      // knex offers no named (prepared) statements: its pool lends the node-postgres connection for the one query.
      const connection = (await db.client.acquireConnection()) as Client;
      try {
        await connection.query({ ...STORE_PAGE, values }).catch(async (error: unknown) => {
          if (!isStoredKeyConflict(error)) throw error;
          await connection.query({ ...STORE_PAGE_UPSERT, values });
        });
      } finally {
        await db.client.releaseConnection(connection);
      }
      return rows.length;
    },

    /** Inserts or overwrites (entity, day) rows, as `storePage` does. */
    async upsertDaily(workspaceId: string, input: readonly DailyStatInput[]): Promise<number> {
      return repository.storePage(workspaceId, input, []);
    },
  };
  return repository;
}

export type AdStatsRepository = ReturnType<typeof createAdStatsRepository>;
