import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { createSecretBox } from '../secret-box';
import { bindings } from './bindings';
import { createRepositories } from '.';
import { VISITORS_BY_ID } from './profiles';

const VISITORS = 20_000;
/** The most a group's prepare step asks for at once. */
const ASKED = 1_000;

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.destroy());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe("a group's visitors (issue 48)", () => {
  it('are found by one primary-key probe each on a visitors table never analysed, as after an upgrade', async () => {
    const { db } = testDb;
    await db.raw('ALTER TABLE visitors SET (autovacuum_enabled = false)');
    await db('workspaces').insert({ id: 'ws_cold', name: 'Cold' });
    await db.raw(
      "INSERT INTO visitors (workspace_id, anonymous_id, first_seen_at, last_seen_at) SELECT 'ws_cold', 'a-' || g, now(), now() FROM generate_series(1, ?) g",
      [VISITORS],
    );
    expect(await db('pg_class').where({ relname: 'visitors' }).first('reltuples')).toEqual({ reltuples: -1 });

    const asked = Array.from({ length: ASKED }, (_, i) => `a-${1 + i * 7}`);
    const { rows } = await db.raw<{ rows: { 'QUERY PLAN': [{ Plan: PlanNode }] }[] }>(`EXPLAIN (FORMAT JSON) ${VISITORS_BY_ID}`, bindings(asked, 'ws_cold'));
    const reads = nodesOf((rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan).filter((node) => node['Relation Name'] === 'visitors');
    expect(reads.map((node) => [node['Node Type'], node['Index Name']])).toEqual([['Index Scan', 'visitors_pkey']]);

    const repos = createRepositories(db, createSecretBox('11'.repeat(32)));
    const found = await repos.profiles.visitors('ws_cold', [...asked, 'a-unknown', 'a-1']);
    expect(found.map((visitor) => visitor.anonymous_id).sort()).toEqual([...asked].sort());
  });
});
