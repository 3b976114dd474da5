import type { FastifyInstance } from 'fastify';
import { eventFiguresSql, refusalsSql, repeatsSql } from '../../db/repositories/diagnostics';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';
import { daysOf } from '../../test/helpers/days';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let workspaceId: string;
let key: string;
let viewer: ReturnType<typeof asPerson>;
let ws: string;
/** `from=…&to=…&timeZone=…`: the days the workspace's conversions in the period happened on. */
let period: string;

const ingest = (batch: object[]) => app.inject({ method: 'POST', url: '/v1/batch', payload: { batch }, headers: { authorization: `Bearer ${key}` } });
const purchase = (n: number, properties: object = {}) => ({ type: 'track', messageId: `p-${n}`, event: 'purchase', userId: `u-${n}`, properties: { order_id: `A-${n}`, total: 10 * n, currency: 'EUR', ...properties } });
/** The request as the pipeline builds it, with the properties given. */
const payload = (properties: object) => ({ event_source: 'web', event_source_id: 'PIXEL', data: [{ event: 'CompletePayment', event_time: 1, properties }] });
async function conversionOf(eventId: string): Promise<{ id: string; event_time: Date }> {
  const row = await testDb.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).first('id', 'event_time');
  if (row === undefined) throw new Error(`no conversion ${eventId}`);
  return row;
}

async function outcome(eventId: string, changes: Record<string, unknown>): Promise<void> {
  await testDb.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).update({ completed_at: testDb.db.fn.now(), ...changes });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  workspaceId = await createWorkspace(app, 'Tea house');
  ws = `workspaces/${workspaceId}`;
  key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json().key;
  for (const rule of ['purchase', 'signup', 'add_to_cart']) expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/${rule}`, {})).statusCode).toBe(200);
  viewer = asPerson(app, await personIn(app, workspaceId, 'viewer@tea.example', 'viewer'));

  expect((await ingest([1, 2, 3, 4, 5, 6].map((n) => purchase(n)))).statusCode).toBe(200);
  expect((await ingest([{ type: 'track', messageId: 's-1', event: 'signup', userId: 'u-1' }])).statusCode).toBe(200);
  // The shop's webhook sends order A-1 twice more: no new conversion, two repeats of it.
  expect((await ingest([purchase(101, { order_id: 'A-1' }), purchase(102, { order_id: 'A-1' })])).statusCode).toBe(200);

  const full = { value: 10, currency: 'EUR', contents: [{ content_id: 'tea-1', quantity: 1, price: 10 }] };
  await outcome('A-1', { status: 'delivered', tiktok_code: 0, request_payload: payload(full) });
  await outcome('A-2', { status: 'delivered', tiktok_code: 0, sent_without_click: true, request_payload: payload({ value: 20, currency: 'EUR' }) });
  await outcome('A-3', { status: 'failed', reason: 'tiktok_rejected', tiktok_code: 40002, tiktok_message: 'Invalid value for field: event_time.', request_payload: payload(full) });
  await outcome('A-4', { status: 'failed', reason: 'tiktok_rejected', tiktok_code: 40002, tiktok_message: 'Invalid value for event_id: not a valid string.', request_payload: payload({ value: 40, content_ids: ['tea-4'] }) });
  await outcome('A-5', { status: 'failed', reason: 'tiktok_rejected', tiktok_code: 40001, tiktok_message: 'No permission to operate pixel code: PIXEL.', request_payload: payload({ value: 50, currency: 'EUR' }) });
  // A-3 happened before A-4: A-4 is its code's latest, the example. A-6 happened ten days before the rest: outside the period.
  const a4 = await conversionOf('A-4');
  await outcome('A-3', { event_time: new Date(a4.event_time.getTime() - 1_000) });
  await outcome('A-6', { status: 'delivered', tiktok_code: 0, event_time: new Date(a4.event_time.getTime() - 10 * 86_400_000), request_payload: payload({}) });

  const inPeriod = await testDb.db('conversions').where({ workspace_id: workspaceId }).whereNot({ event_id: 'A-6' }).pluck('event_time');
  const { from, to } = daysOf(inPeriod, 'Europe/Berlin');
  period = `from=${from}&to=${to}&timeZone=Europe/Berlin`;
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('diagnostics per TikTok event', () => {
  it('counts, for a viewer, what became of each TikTok event’s conversions, and names the rules’ events that had none', async () => {
    const answer = await viewer('GET', `${ws}/diagnostics?${period}`);
    expect(answer.statusCode).toBe(200);
    const { events } = answer.json();
    expect(events.map((e: { tiktokEvent: string }) => e.tiktokEvent)).toEqual(['CompletePayment', 'CompleteRegistration', 'AddToCart']);
    const [payment, registration, cart] = events;
    expect(payment).toEqual({
      tiktokEvent: 'CompletePayment',
      received: 5,
      delivered: 2,
      deliveredInTestMode: 0,
      pending: 0,
      skipped: 0,
      failed: 3,
      refused: 3,
      built: 5,
      missing: { value: 0, currency: 1, contents: 2 },
      missingAny: 3,
      repeated: 1,
      repeats: 2,
      deliveredWithoutClick: 1,
      withoutClickShare: 0.5,
      topRefusals: [
        {
          tiktokCode: 40002,
          conversions: 2,
          words: expect.stringContaining('TikTok refused a field of the event'),
          example: { conversionId: (await conversionOf('A-4')).id, eventId: 'A-4', message: 'Invalid value for event_id: not a valid string.' },
        },
        {
          tiktokCode: 40001,
          conversions: 1,
          words: expect.stringContaining('admin or operator of the advertiser'),
          example: { conversionId: (await conversionOf('A-5')).id, eventId: 'A-5', message: 'No permission to operate pixel code: PIXEL.' },
        },
      ],
    });
    // A registration carries no amount: no parameters are recommended for it.
    expect(registration).toMatchObject({ received: 1, pending: 1, built: 0, missing: null, missingAny: 0, withoutClickShare: null, topRefusals: [] });
    expect(cart).toMatchObject({ received: 0, delivered: 0, missing: { value: 0, currency: 0, contents: 0 }, topRefusals: [] });
  });

  it('links each figure to exactly the conversions it counts, through the Conversions page’s filter', async () => {
    const listed = async (filter: string) =>
      (await viewer('GET', `${ws}/conversions?tiktokEvent=CompletePayment&${period}&${filter}`)).json().conversions.map((c: { eventId: string }) => c.eventId).sort();
    expect(await listed('status=delivered')).toEqual(['A-1', 'A-2']);
    expect(await listed('status=failed&reason=tiktok_rejected')).toEqual(['A-3', 'A-4', 'A-5']);
    expect(await listed('status=failed&reason=tiktok_rejected&tiktokCode=40002')).toEqual(['A-3', 'A-4']);
    expect(await listed('missing=contents')).toEqual(['A-2', 'A-5']);
    expect(await listed('missing=currency')).toEqual(['A-4']);
    expect(await listed('repeated=true')).toEqual(['A-1']);
    expect(await listed('status=delivered&withoutClick=true')).toEqual(['A-2']);
    // Send again by the same filter counts the same conversions (the refused ones lacking contents).
    expect((await viewer('GET', `${ws}/conversions/send-again?tiktokEvent=CompletePayment&${period}&missing=contents`)).json()).toMatchObject({ count: 1 });
  });

  it('says which query parameter is wrong and why', async () => {
    const refused = async (query: string) => (await viewer('GET', `${ws}/${query}`)).json();
    expect(await refused(`conversions?missing=price`)).toMatchObject({ message: expect.stringContaining('missing must be one of value, currency, contents') });
    expect(await refused(`conversions?repeated=yes`)).toMatchObject({ message: expect.stringContaining('repeated must be true, or not given') });
    expect(await refused(`conversions?tiktokCode=forty`)).toMatchObject({ message: expect.stringContaining('tiktokCode must be TikTok’s numeric code') });
    expect(await refused(`diagnostics?from=2026-01-01`)).toMatchObject({ message: expect.stringContaining('to is required') });
  });

  it('answers the settings API over the last days, and only for its own workspace', async () => {
    const answer = await adminCall(app, 'GET', `/admin/workspaces/${workspaceId}/diagnostics`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ workspaceId, days: 7, events: [expect.objectContaining({ tiktokEvent: 'CompletePayment', received: 5, refused: 3 }), expect.anything(), expect.anything()] });
    // Ten days back, A-6 is in.
    expect((await adminCall(app, 'GET', `/admin/workspaces/${workspaceId}/diagnostics?days=11`)).json().events[0]).toMatchObject({ received: 6, delivered: 3 });
    expect((await adminCall(app, 'GET', `/admin/workspaces/${workspaceId}/diagnostics?days=0`)).json()).toMatchObject({ message: expect.stringContaining('days must be a whole number of days from 1 to 90') });
    const other = await createWorkspace(app, 'Other shop');
    expect((await adminCall(app, 'GET', `/admin/workspaces/${other}/diagnostics`)).json().events).toEqual([]);
  });

  it('reads the period’s conversions of a busy workspace through their time indexes, never scanning the events or the conversions', async () => {
    // Thousands of events and conversions of a busier workspace beside this one's few, each conversion repeated once.
    const busy = await createWorkspace(app, 'Busy shop');
    await testDb.db.raw(
      `INSERT INTO events (workspace_id, message_id, type, event_name, occurred_at, received_at, message)
       SELECT ?, 'bulk-' || g, 'track', 'purchase', now() - g * interval '1 minute', now() - g * interval '1 minute', '{}'::jsonb FROM generate_series(1, 6000) g`,
      [busy],
    );
    await testDb.db.raw(
      `INSERT INTO conversions (workspace_id, event_row_id, message_id, source_event, tiktok_event, event_id, event_time, status, workflow_id)
       SELECT workspace_id, id, message_id, 'purchase', 'CompletePayment', message_id, occurred_at, 'delivered', 'bulk' FROM events WHERE workspace_id = ? AND message_id LIKE 'bulk-%' AND id % 2 = 0`,
      [busy],
    );
    await testDb.db.raw(
      `UPDATE events e SET duplicate_of_conversion_id = c.id FROM conversions c WHERE c.workspace_id = ? AND e.workspace_id = c.workspace_id AND e.id = c.event_row_id + 1`,
      [busy],
    );
    await testDb.db.raw('ANALYZE events');
    await testDb.db.raw('ANALYZE conversions');
    // Its last two hours: a few of its conversions.
    const bindings = [busy, new Date(Date.now() - 2 * 3_600_000), new Date()];
    for (const [sql, indexes] of [
      [eventFiguresSql(), ['conversions_by_event_time']],
      // events_duplicate_of as each day's partition holds it.
      [repeatsSql(), ['conversions_by_event_time', 'events_\\d{8}_duplicate_of_conversion_id_idx']],
      // The refused ones: the period's range of the index by reason.
      [refusalsSql(), ['conversions_by_reason']],
    ] as const) {
      const [{ 'QUERY PLAN': [plan] }] = (await testDb.db.raw(`EXPLAIN (FORMAT JSON) ${sql}`, bindings)).rows;
      const scans: string[] = [];
      const walk = (node: { Plans?: unknown[] } & Record<string, unknown>) => {
        if (node['Relation Name'] !== undefined || node['Index Name'] !== undefined) scans.push(`${node['Node Type']} on ${node['Relation Name'] ?? ''} using ${node['Index Name'] ?? ''}`);
        for (const child of node.Plans ?? []) walk(child as typeof node);
      };
      walk(plan.Plan);
      // Only an empty partition of events (a coming day's) is read whole: it has no pages to read.
      for (const table of scans.filter((scan) => scan.startsWith('Seq Scan')).map((scan) => scan.split(' ')[3] as string)) {
        const { rows } = await testDb.db.raw<{ rows: { holds: boolean }[] }>('SELECT EXISTS (SELECT FROM ??) AS holds', [table]);
        expect({ table, holdsRows: rows[0]?.holds }).toEqual({ table: expect.stringMatching(/^events_\d{8}$/), holdsRows: false });
      }
      expect(scans).toEqual(expect.arrayContaining(indexes.map((index) => expect.stringMatching(new RegExp(`using ${index}$`)))));
    }
  });
});
