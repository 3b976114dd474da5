import type { FastifyInstance } from 'fastify';
import { eventFiguresSql } from '../../db/repositories/diagnostics';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';
import { daysOf } from '../../test/helpers/days';
import { buildTestApp } from '../../test/helpers/test-app';

/**
 * Issue 45: conversions from the website, an app, a store or the phone (offline) and a CRM, told apart and filtered
 * by source on the console's Conversions, Diagnostics and match quality, and through the settings API. The sources
 * are set on the stored rows: how conversions get them is the rules' and the pipeline's business.
 */
let testDb: TestDatabase;
let app: FastifyInstance;
let workspaceId: string;
let ws: string;
let viewer: ReturnType<typeof asPerson>;
/** `from=…&to=…&timeZone=…`: the days the conversions happened on. */
let period: string;

const SOURCES: Record<string, string> = { 'S-1': 'web', 'S-2': 'web', 'S-3': 'app', 'S-4': 'offline', 'S-5': 'offline', 'S-6': 'crm' };
const admin = (path: string) => adminCall(app, 'GET', `/admin/workspaces/${workspaceId}${path}`);
const eventIds = (conversions: { eventId: string }[]) => conversions.map((c) => c.eventId).sort();
const listed = async (query: string) => eventIds((await viewer('GET', `${ws}/conversions?${period}&${query}`)).json().conversions);

async function finish(eventId: string, changes: Record<string, unknown>): Promise<void> {
  await testDb.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).update({ completed_at: testDb.db.fn.now(), ...changes });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = buildTestApp(testDb.db).app;
  workspaceId = await createWorkspace(app, 'Corner shop');
  ws = `workspaces/${workspaceId}`;
  const key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json().key;
  expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/purchase`, {})).statusCode).toBe(200);
  viewer = asPerson(app, await personIn(app, workspaceId, 'viewer@corner.example', 'viewer'));
  const batch = Object.keys(SOURCES).map((eventId, n) => ({ type: 'track', messageId: `m-${n}`, event: 'purchase', userId: `u-${n}`, properties: { order_id: eventId, total: 10, currency: 'EUR' } }));
  expect((await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch }, headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
  for (const [eventId, source] of Object.entries(SOURCES)) await finish(eventId, { event_source: source });
  const keys = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { source: 'message' }]));
  await finish('S-1', { status: 'delivered', match_keys: keys('ttclid', 'email', 'ip', 'user_agent') });
  await finish('S-3', { status: 'skipped', reason: 'no_ttclid' });
  await finish('S-4', { status: 'delivered', match_keys: keys('email', 'phone') });
  await finish('S-5', { status: 'failed', reason: 'tiktok_rejected', tiktok_code: 40002 });
  await finish('S-6', { status: 'delivered', match_keys: keys('email') });
  const { from, to } = daysOf(await testDb.db('conversions').where({ workspace_id: workspaceId }).pluck('event_time'), 'Europe/Berlin');
  period = `from=${from}&to=${to}&timeZone=Europe/Berlin`;
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('the Conversions page by source', () => {
  it('names each conversion’s source, and filters by it together with the other filters', async () => {
    const all = (await viewer('GET', `${ws}/conversions?${period}`)).json().conversions as { eventId: string; eventSource: string }[];
    expect(Object.fromEntries(all.map((c) => [c.eventId, c.eventSource]))).toEqual(SOURCES);
    expect(await listed('source=offline')).toEqual(['S-4', 'S-5']);
    expect(await listed('source=offline&status=delivered')).toEqual(['S-4']);
    expect(await listed('source=web&q=S-2')).toEqual(['S-2']);
    expect(await listed('source=crm&status=failed')).toEqual([]);
    // Send again by the same filter: the offline one that failed, not the website's or the app's.
    expect((await viewer('GET', `${ws}/conversions/send-again?${period}&source=offline`)).json()).toMatchObject({ count: 1 });
  });

  it('refuses a source it does not know, naming the field and the choices', async () => {
    const refused = await viewer('GET', `${ws}/conversions?source=email`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('source must be one of web, app, offline, crm');
  });

  it('writes the source in words in the CSV file, of the filtered conversions only', async () => {
    const lines = (await viewer('GET', `${ws}/conversions.csv?${period}&source=offline`)).body.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toContain(',Order or event ID,Source,Value,');
    expect(lines.slice(1).map((line) => line.split(',').slice(5, 7)).sort()).toEqual([
      ['S-4', 'Offline (store and phone)'],
      ['S-5', 'Offline (store and phone)'],
    ]);
  });

  it('tells on the conversion’s page where it went', async () => {
    const id = (await testDb.db('conversions').where({ workspace_id: workspaceId, event_id: 'S-6' }).first('id'))?.id;
    expect((await viewer('GET', `${ws}/conversions/${id}`)).json()).toMatchObject({ eventSource: 'crm', status: 'delivered' });
  });
});

describe('Diagnostics and match quality by source', () => {
  it('counts each source’s conversions, and gives one source’s figures when asked', async () => {
    const all = (await viewer('GET', `${ws}/diagnostics?${period}`)).json();
    expect(all.source).toBeNull();
    expect(all.events[0]).toMatchObject({ tiktokEvent: 'CompletePayment', received: 6, delivered: 3, failed: 1, skipped: 1 });
    expect(all.sources).toEqual([
      { source: 'web', received: 2, delivered: 1, pending: 1, skipped: 0, failed: 0 },
      { source: 'offline', received: 2, delivered: 1, pending: 0, skipped: 0, failed: 1 },
      { source: 'app', received: 1, delivered: 0, pending: 0, skipped: 1, failed: 0 },
      { source: 'crm', received: 1, delivered: 1, pending: 0, skipped: 0, failed: 0 },
    ]);
    const offline = (await viewer('GET', `${ws}/diagnostics?${period}&source=offline`)).json();
    expect(offline.source).toBe('offline');
    expect(offline.sources).toEqual([{ source: 'offline', received: 2, delivered: 1, pending: 0, skipped: 0, failed: 1 }]);
    expect(offline.events[0]).toMatchObject({ tiktokEvent: 'CompletePayment', received: 2, delivered: 1, failed: 1, refused: 1, topRefusals: [expect.objectContaining({ tiktokCode: 40002, conversions: 1 })] });
    expect((await viewer('GET', `${ws}/diagnostics?${period}&source=shop`)).json().message).toContain('source must be one of web, app, offline, crm');
  });

  it('estimates the match quality of each TikTok event per source', async () => {
    const { matchQuality } = (await viewer('GET', `${ws}/overview?${period}`)).json();
    const scores = Object.fromEntries(matchQuality.events.map((e: { source: string; delivered: number; estimate: { score: number } }) => [e.source, [e.delivered, e.estimate.score]]));
    // Website: click, email, IP, user agent (2 + 2.5 + 0.5 + 0.5); offline: email and phone; CRM: email.
    expect(scores).toEqual({ web: [1, 5.5], offline: [1, 4.5], crm: [1, 2.5] });
  });
});

describe('the settings API by source', () => {
  it('lists the conversions of one source, with their source', async () => {
    const offline = (await admin('/conversions?source=offline')).json().conversions;
    expect(eventIds(offline)).toEqual(['S-4', 'S-5']);
    expect(offline.every((c: { eventSource: string }) => c.eventSource === 'offline')).toBe(true);
    expect(eventIds((await admin('/conversions?source=app&status=skipped')).json().conversions)).toEqual(['S-3']);
    const refused = await admin('/conversions?source=store');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('source must be one of web, app, offline, crm');
  });

  it('gives diagnostics and match keys of one source', async () => {
    expect((await admin('/diagnostics?source=crm')).json()).toMatchObject({ source: 'crm', sources: [{ source: 'crm', received: 1, delivered: 1 }], events: [expect.objectContaining({ received: 1 })] });
    const coverage = (await admin('/match-keys?days=1&source=offline')).json();
    expect(coverage).toMatchObject({ source: 'offline', delivered: 1 });
    expect(coverage.keys.filter((k: { conversions: number }) => k.conversions > 0).map((k: { key: string }) => k.key)).toEqual(['email', 'phone']);
    expect((await admin('/match-keys?days=1')).json()).toMatchObject({ source: null, delivered: 3 });
  });
});

describe('a source filter on a large store', () => {
  it('reads the few conversions of a source other than the website through their own index', async () => {
    const busy = await createWorkspace(app, 'Busy shop');
    await testDb.db.raw(
      `INSERT INTO events (workspace_id, message_id, type, event_name, occurred_at, received_at, message)
       SELECT ?, 'bulk-' || g, 'track', 'purchase', now() - g * interval '1 minute', now() - g * interval '1 minute', '{}'::jsonb FROM generate_series(1, 6000) g`,
      [busy],
    );
    await testDb.db.raw(
      `INSERT INTO conversions (workspace_id, event_row_id, message_id, source_event, tiktok_event, event_id, event_time, event_source, status, workflow_id)
       SELECT workspace_id, id, message_id, 'purchase', 'CompletePayment', message_id, occurred_at, CASE WHEN id % 100 = 0 THEN 'offline' ELSE 'web' END, 'delivered', 'bulk'
       FROM events WHERE workspace_id = ?`,
      [busy],
    );
    await testDb.db.raw('ANALYZE conversions');
    const { rows } = await testDb.db.raw(
      `EXPLAIN (FORMAT JSON) SELECT c.* FROM conversions c WHERE c.workspace_id = ? AND c.event_source = ? AND c.status = ? ORDER BY c.event_time DESC, c.id DESC LIMIT 51`,
      [busy, 'offline', 'delivered'],
    );
    expect(JSON.stringify(rows[0]['QUERY PLAN'])).toContain('"Index Name":"conversions_by_source"');
    // Diagnostics of that source, over the last day.
    const figures = await testDb.db.raw(`EXPLAIN (FORMAT JSON) ${eventFiguresSql(true)}`, [busy, new Date(Date.now() - 86_400_000), new Date(), 'offline']);
    expect(JSON.stringify(figures.rows[0]['QUERY PLAN'])).toContain('"Index Name":"conversions_by_source"');
  });
});
