import type { FastifyInstance } from 'fastify';
import { erasureLogView, erasureView } from '../contract/erasure-views';
import { withFullMessage } from '../db/event-message';
import type { Workspace } from '../db/repositories/workspaces';
import { sha256Hex } from '../domain/hashing';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestApp } from './helpers/test-app';
import { createTestDatabase, type TestDatabase } from './helpers/database';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let shop: Workspace;
let key: string;

/** Jo: a phone visitor who clicked an ad, a desktop visitor who bought, linked by Jo's user ID, email and phone. */
const JO = {
  userId: 'user-jo-4821',
  phoneVisitor: 'anon-jo-phone-77a1',
  desktopVisitor: 'anon-jo-desktop-90b2',
  email: 'jo.rivera@example.com',
  phone: '+14155550123',
  ttclid: 'E.C.P.jo-click-5531',
  ttp: 'ttp-jo-2F7h37YkS1j5',
  ip: '203.0.113.77',
  userAgent: 'JoBrowser/9.1 (jo-device)',
};
/** Sam shares nothing with Jo. */
const SAM = { userId: 'user-sam-1174', visitor: 'anon-sam-33c4', email: 'sam.lee@example.com', ttclid: 'E.C.P.sam-click-8812' };

/** Every way Jo's identity can be written down: in clear and as ingest and the pipeline hash it. */
const joTraces = [
  ...Object.values(JO),
  sha256Hex(JO.email),
  sha256Hex(JO.phone),
  sha256Hex(JO.userId),
];

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  shop = await subject.repos.workspaces.create('Erasure shop');
  key = (await subject.repos.apiKeys.create(shop.id, 'backend')).key;
  await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });

  const context = { ip: JO.ip, userAgent: JO.userAgent, ttp: JO.ttp };
  await ingest([
    { type: 'page', messageId: 'jo-1', anonymousId: JO.phoneVisitor, context: { ...context, page: { url: `https://shop.example/?ttclid=${JO.ttclid}` } } },
    { type: 'identify', messageId: 'jo-2', userId: JO.userId, anonymousId: JO.phoneVisitor, traits: { email: JO.email, phone: JO.phone } },
    { type: 'track', messageId: 'jo-3', event: 'purchase', userId: JO.userId, anonymousId: JO.desktopVisitor, context, properties: { order_id: 'order-jo-1', total: 80, currency: 'USD' } },
    { type: 'page', messageId: 'sam-1', anonymousId: SAM.visitor, context: { page: { url: `https://shop.example/?ttclid=${SAM.ttclid}` } } },
    { type: 'track', messageId: 'sam-2', event: 'purchase', userId: SAM.userId, anonymousId: SAM.visitor, traits: { email: SAM.email }, properties: { order_id: 'order-sam-1', total: 20, currency: 'USD' } },
  ]);
  // What the conversion pipeline writes once it has found the click and built the request.
  const joConversion = await testDb.db('conversions').where({ workspace_id: shop.id, message_id: 'jo-3' }).first();
  await testDb.db('conversions').where({ id: joConversion?.id }).update({
    status: 'delivered',
    ttclid: JO.ttclid,
    ttp: JO.ttp,
    click_anonymous_id: JO.phoneVisitor,
    match_keys: { ttclid: { source: 'visitor', anonymousId: JO.phoneVisitor }, email: { source: 'identity' } },
    identity_path: JSON.stringify([{ kind: 'user_id', value: JO.userId }, { kind: 'anonymous_id', value: JO.phoneVisitor }]) as never,
    request_payload: {
      event_source: 'web',
      event_source_id: 'CPIXEL',
      data: [
        {
          event: 'CompletePayment',
          event_id: 'order-jo-1',
          user: { email: sha256Hex(JO.email), phone: sha256Hex(JO.phone), external_id: sha256Hex(JO.userId), ttclid: JO.ttclid, ttp: JO.ttp, ip: JO.ip, user_agent: JO.userAgent },
          page: { url: `https://shop.example/?ttclid=${JO.ttclid}` },
          properties: { value: 80, currency: 'USD', order_id: 'order-jo-1' },
        },
      ],
    },
  });
  await testDb.db('conversion_history').insert({ conversion_id: joConversion?.id, step: 'identity_resolved', detail: { visitor: JO.phoneVisitor, ttclid: JO.ttclid } });
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

async function ingest(batch: unknown[]): Promise<void> {
  const response = await app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${key}` }, payload: { batch } });
  expect(response.statusCode).toBe(200);
}

function erase(body: unknown) {
  return app.inject({ method: 'POST', url: `/admin/workspaces/${shop.id}/erasures`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: body as object });
}

/** Every row of every table, as JSON text, keyed by table. */
async function everyRow(): Promise<Record<string, string[]>> {
  // Every table, a partitioned one read through its parent (which reads its partitions).
  const tables = await testDb.db('pg_class')
    .where({ relnamespace: testDb.db.raw("'public'::regnamespace"), relispartition: false })
    .whereIn('relkind', ['r', 'p'])
    .whereNot('relname', 'like', 'knex_%')
    .pluck('relname');
  const dump: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await testDb.db.raw<{ rows: { row: string }[] }>(`SELECT to_jsonb(t)::text AS row FROM ${table} t`);
    dump[table] = rows.map((r) => r.row);
  }
  return dump;
}

function tablesHolding(dump: Record<string, string[]>, traces: readonly string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(dump)) {
    const hits = traces.filter((trace) => rows.some((row) => row.toLowerCase().includes(trace.toLowerCase())));
    if (hits.length > 0) found[table] = hits;
  }
  return found;
}

describe('erasure of a person', () => {
  it('removes every trace of the person from every table, keeps their conversion row, and leaves everyone else alone', async () => {
    const before = await everyRow();
    expect(Object.keys(tablesHolding(before, joTraces)).sort()).toEqual(['clicks', 'conversion_history', 'conversions', 'events', 'identity_links', 'visitors']);
    const samBefore = tablesHolding(before, Object.values(SAM));

    const response = await erase({ email: ' Jo.Rivera@Example.com ' });

    expect(response.statusCode).toBe(201);
    expect(erasureView.parse(response.json())).toMatchObject({
      identifiers: { user_id: 1, anonymous_id: 2, email_sha256: 1, phone_sha256: 1 },
      truncated: false,
      erased: { eventsDeleted: 2, eventsStripped: 1, conversionsAnonymised: 1, visitors: 2, clicks: 1, identityLinks: 8 },
    });
    const after = await everyRow();
    expect(tablesHolding(after, joTraces)).toEqual({});
    expect(tablesHolding(after, Object.values(SAM))).toEqual(samBefore);

    const conversions = await testDb.db('conversions').where({ workspace_id: shop.id }).orderBy('message_id');
    expect(conversions.map((c) => [c.message_id, c.status, c.value, c.currency])).toEqual([
      ['jo-3', 'delivered', 80, 'USD'],
      ['sam-2', 'pending', 20, 'USD'],
    ]);
    expect(conversions[0]?.request_payload).toEqual({
      event_source: 'web',
      event_source_id: 'CPIXEL',
      data: [{ event: 'CompletePayment', event_id: 'order-jo-1', properties: { value: 80, currency: 'USD', order_id: 'order-jo-1' } }],
    });
    const joEvent = await testDb.db('events').where({ workspace_id: shop.id, message_id: 'jo-3' }).first();
    expect(joEvent && withFullMessage(joEvent)).toMatchObject({ user_id: null, anonymous_id: null, message: { type: 'track', event: 'purchase', messageId: 'jo-3' } });
    expect(joEvent?.stripped_at).toBeInstanceOf(Date);
  });

  it('logs the request without identifiers in clear, with a change-log entry, and changes nothing when repeated', async () => {
    const before = await everyRow();
    const again = await erase({ email: JO.email, userId: JO.userId });
    expect(again.statusCode).toBe(201);
    expect(erasureView.parse(again.json()).erased).toEqual({ eventsDeleted: 0, eventsStripped: 0, conversionsAnonymised: 0, visitors: 0, clicks: 0, identityLinks: 0 });
    const after = await everyRow();
    for (const table of Object.keys(before).filter((name) => !['erasure_requests', 'change_log'].includes(name))) {
      expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    }

    const log = await app.inject({ method: 'GET', url: `/admin/workspaces/${shop.id}/erasures`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const { erasures } = erasureLogView.parse(log.json());
    expect(erasures).toHaveLength(2);
    expect(erasures[1].identifiers).toEqual([{ kind: 'email_sha256', digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(erasures[0].identifiers.map((i) => i.kind)).toEqual(['user_id', 'email_sha256']);
    // The digest is keyed: the same email gives the same digest, yet not its plain SHA-256.
    expect(erasures[0].identifiers[1].digest).toBe(erasures[1].identifiers[0].digest);
    expect(erasures[1].identifiers[0].digest).not.toBe(sha256Hex(JO.email));
    const changes = await subject.repos.changeLog.list(shop.id, { limit: 10 });
    expect(changes.filter((c) => c.action === 'erasure.run').map((c) => c.target)).toEqual(erasures.map((e) => e.id));
    expect(tablesHolding(after, joTraces)).toEqual({});
  });

  it('links the person again when they come back after the erasure (this process forgot what it had written)', async () => {
    await ingest([{ type: 'identify', messageId: 'jo-back', userId: JO.userId, anonymousId: JO.phoneVisitor, traits: { email: JO.email } }]);
    const links = await testDb.db('identity_links').where({ workspace_id: shop.id, from_kind: 'user_id', from_value: JO.userId }).pluck('to_value');
    expect(links.sort()).toEqual([JO.phoneVisitor, sha256Hex(JO.email)].sort());
  });

  it('answers 400 naming what cannot identify anyone', async () => {
    const empty = await erase({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues).toEqual(['body must name the person by at least one of userId, anonymousId, email, phone']);
    const unreadable = await erase({ email: 'jo at example', userId: 'undefined', phone: 42 });
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().issues).toEqual(['phone must be a string']);
    const junk = await erase({ email: 'jo at example', userId: 'undefined' });
    expect(junk.json().issues).toEqual([
      'userId is not a usable identifier (empty, or a placeholder such as "null" or "anonymous" that ingest never links)',
      'email is not an email address (nor the SHA-256 of one)',
    ]);
  });
});
