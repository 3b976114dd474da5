import type { Knex } from 'knex';

/** knex's types omit arrays holding nulls, which node-postgres sends as PostgreSQL arrays for `unnest()`. */
export function bindings(...values: unknown[]): readonly Knex.RawBinding[] {
  return values as Knex.RawBinding[];
}
