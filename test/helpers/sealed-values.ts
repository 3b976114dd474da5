import type { Knex } from 'knex';
import { SEALED_COLUMNS, sealedColumnName } from '../../db/sealed-columns';
import { SEALED_VALUE_PATTERN } from '../../db/secret-box';

/** Text-like columns of the schema's tables (a partitioned table once, not each partition): where a sealed value can sit. */
async function textColumns(db: Knex): Promise<Map<string, string[]>> {
  const { rows } = await db.raw<{ rows: { table: string; column: string }[] }>(
    `SELECT c.relname AS table, a.attname AS column
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
       AND a.atttypid IN ('text'::regtype, 'varchar'::regtype, 'json'::regtype, 'jsonb'::regtype, 'text[]'::regtype, 'varchar[]'::regtype)
     ORDER BY 1, 2`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of rows) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  return byTable;
}

/** Every `table.column` holding at least one value shaped like SecretBox's sealed values, anywhere in its text. */
export async function columnsWithSealedValues(db: Knex): Promise<string[]> {
  const found: string[] = [];
  for (const [table, columns] of await textColumns(db)) {
    const checks = columns.map((column) => db.raw('coalesce(bool_or(??::text ~ ?), false) AS ??', [column, SEALED_VALUE_PATTERN, column]));
    const row = (await db(table).first(checks)) as Record<string, boolean>;
    for (const column of columns) if (row[column]) found.push(`${table}.${column}`);
  }
  return found;
}

/** Sealed values in columns db/sealed-columns.ts does not list: rotation would skip them, and the docs miss them. */
export async function unregisteredSealedColumns(db: Knex): Promise<string[]> {
  const registered = new Set<string>(SEALED_COLUMNS.map(sealedColumnName));
  return (await columnsWithSealedValues(db)).filter((column) => !registered.has(column));
}
