import type { Knex } from 'knex';

/** A statement as knex sent it: `$1`, `$2`, … in order, and their values. */
export interface SentStatement {
  sql: string;
  bindings: readonly unknown[];
}

/** A node of PostgreSQL's plan (EXPLAIN's JSON), with its children. */
export type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** What `run` returns and every statement it sent through `db`, in order. */
export async function recordStatements<T>(db: Knex, run: () => Promise<T>): Promise<{ result: T; statements: SentStatement[] }> {
  const statements: SentStatement[] = [];
  const record = (query: SentStatement) => statements.push(query);
  db.on('query', record);
  try {
    return { result: await run(), statements };
  } finally {
    db.off('query', record);
  }
}

/** Every node of the plan of `statement`, the root first; run (ANALYZE) when `analyze`, so the nodes hold what they read. */
export async function planNodes(db: Knex, statement: SentStatement, { analyze = false } = {}): Promise<PlanNode[]> {
  // raw() takes the statement's $1, $2, … back as ?, in the same order.
  const { rows } = await db.raw(`EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${statement.sql.replace(/\$\d+/g, '?')}`, statement.bindings as Knex.RawBinding[]);
  const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];
  return flatten(rows[0]['QUERY PLAN'][0].Plan);
}
