import type { FastifyInstance } from 'fastify';
import { consoleErasureLogView, consoleErasureView } from '../../contract/erasure-views';
import { sendAgainCountView, sentAgainView } from '../../contract/send-again-views';
import { deletedRuleView, ruleView } from '../../contract/views';
import type { ConversionRow, ConversionStatus } from '../../db/types';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let workspaceId: string;
let key: string;
let ws: string;
let owner: ReturnType<typeof asPerson>;
let editor: ReturnType<typeof asPerson>;
let viewer: ReturnType<typeof asPerson>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  workspaceId = await createWorkspace(app, 'Moss garden');
  ws = `workspaces/${workspaceId}`;
  key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json().key;
  owner = asPerson(app, await personIn(app, workspaceId, 'owner@moss.example', 'owner'));
  editor = asPerson(app, await personIn(app, workspaceId, 'editor@moss.example', 'editor'));
  viewer = asPerson(app, await personIn(app, workspaceId, 'viewer@moss.example', 'viewer'));
  await editor('PUT', `${ws}/rules/purchase`, {});
  expect(ruleView.parse((await editor('PUT', `${ws}/rules/signup`, { tiktokEvent: 'CompleteRegistration' })).json())).toMatchObject({ event: 'signup', tiktokEvent: 'CompleteRegistration' });
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

async function ingest(batch: object[]) {
  const answer = await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch }, headers: { authorization: `Bearer ${key}` } });
  expect(answer.statusCode).toBe(200);
}

const purchase = (order: string, who: object, extra: object = {}) => ({ type: 'track', messageId: `m-${order}`, event: 'purchase', ...who, properties: { order_id: order, total: 20 }, ...extra });
async function conversionOf(eventId: string): Promise<ConversionRow> {
  const row = await testDb.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).first();
  if (row === undefined) throw new Error(`no conversion ${eventId}`);
  return row;
}
const finish = (eventId: string, status: ConversionStatus, reason: string | null) => testDb.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).update({ status, reason });
const eventIds = async (query: string) => ((await viewer('GET', `${ws}/conversions?${query}`)).json().conversions as { eventId: string }[]).map((c) => c.eventId).sort();
const lastLogEntry = async () => (await viewer('GET', `${ws}/change-log?limit=1`)).json().entries[0];

describe('Send again by filter', () => {
  beforeAll(async () => {
    await ingest([
      purchase('SA-1', { userId: 'sa-1' }),
      purchase('SA-2', { userId: 'sa-2' }),
      purchase('SA-3', { userId: 'sa-3' }),
      purchase('SA-4', { userId: 'sa-4' }),
      purchase('SA-5', { userId: 'sa-5' }),
      { type: 'track', messageId: 'm-SA-6', event: 'signup', userId: 'sa-6', properties: { event_id: 'SA-6' } },
    ]);
    await finish('SA-1', 'skipped', 'no_ttclid');
    await finish('SA-2', 'skipped', 'tiktok_not_connected');
    await finish('SA-3', 'failed', 'tiktok_rejected');
    await finish('SA-4', 'delivered', null);
    await finish('SA-5', 'skipped', 'conversion_rule_removed');
    await finish('SA-6', 'skipped', 'conversion_rule_removed');
    expect(deletedRuleView.parse((await editor('DELETE', `${ws}/rules/signup`)).json())).toEqual({ event: 'signup', deleted: true });
  });

  it('counts what a filter would send again, leaving out what could only be skipped again', async () => {
    // SA-2, SA-3 and SA-5 (its rule is back) can change; SA-1 has no click, SA-6's event has no rule now.
    expect((await viewer('GET', `${ws}/conversions/send-again?q=sa-&timeZone=UTC`)).json()).toEqual({ count: 0, leftOut: 0, limit: 10_000 });
    const all = sendAgainCountView.parse((await viewer('GET', `${ws}/conversions/send-again?timeZone=UTC`)).json());
    expect(all).toEqual({ count: 3, leftOut: 2, limit: 10_000 });
    expect((await viewer('GET', `${ws}/conversions/send-again?status=skipped`)).json()).toMatchObject({ count: 2, leftOut: 2 });
    const refused = await viewer('GET', `${ws}/conversions/send-again?status=delivered`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual(['status must be failed or skipped, or not given: only failed and skipped conversions are sent again']);
    expect((await viewer('GET', `${ws}/conversions/send-again?from=2026-01-01`)).json().issues).toEqual(['from and to go together']);
  });

  it('is refused to a viewer and without the CSRF token, and sends the filtered ones again with a change-log entry in words', async () => {
    const viewerTry = await viewer('POST', `${ws}/conversions/send-again?reason=tiktok_not_connected`);
    expect([viewerTry.statusCode, viewerTry.json().message]).toEqual([403, 'your role (viewer) cannot do this: it needs an editor or owner']);
    expect((await editor('POST', `${ws}/conversions/send-again?reason=tiktok_not_connected`, undefined, { 'x-csrf-token': 'forged' })).statusCode).toBe(403);
    expect((await conversionOf('SA-2')).status).toBe('skipped');

    expect(sentAgainView.parse((await editor('POST', `${ws}/conversions/send-again?reason=tiktok_not_connected&q=SA-2`)).json())).toEqual({ requeued: 1 });
    expect((await conversionOf('SA-2')).status).toBe('pending');
    const entry = await lastLogEntry();
    expect(entry).toMatchObject({ actorName: 'editor@moss.example', summary: 'Sent 1 conversion again by filter' });
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { field: 'Reason', before: '–', after: 'TikTok not connected' },
        { field: 'Searched', before: '–', after: 'on' },
      ]),
    );
    expect(JSON.stringify(entry)).not.toContain('SA-2');

    expect((await editor('POST', `${ws}/conversions/send-again`)).json()).toEqual({ requeued: 2 });
    expect(await testDb.db('conversions').where({ workspace_id: workspaceId }).whereIn('event_id', ['SA-1', 'SA-3', 'SA-4', 'SA-5', 'SA-6']).orderBy('event_id').pluck('status')).toEqual([
      'skipped',
      'pending',
      'delivered',
      'pending',
      'skipped',
    ]);
  });

  it('refuses more than 10,000 at once, saying how many the filter selects', async () => {
    const crowded = await createWorkspace(app, 'Crowded');
    const crowdedOwner = asPerson(app, await personIn(app, crowded, 'owner@crowded.example', 'owner'));
    const source = await conversionOf('SA-4');
    await testDb.db.raw(
      `INSERT INTO conversions (workspace_id, event_row_id, message_id, source_event, tiktok_event, event_id, event_time, event_source, status, reason, workflow_id)
       SELECT ?, event_row_id, message_id, source_event, tiktok_event, 'bulk-' || n, event_time, event_source, 'failed', 'tiktok_rejected', 'bulk-workflow-' || n
       FROM conversions, generate_series(1, 10001) AS n WHERE id = ?`,
      [crowded, source.id],
    );
    expect((await crowdedOwner('GET', `workspaces/${crowded}/conversions/send-again`)).json()).toEqual({ count: 10_001, leftOut: 0, limit: 10_000 });
    const refused = await crowdedOwner('POST', `workspaces/${crowded}/conversions/send-again`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('the filter selects 10,001 conversions, more than 10,000 at once: narrow it (a shorter period, a reason or a TikTok event)');
    expect(await testDb.db('conversions').where({ workspace_id: crowded, status: 'pending' }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
  });
});

describe('search', () => {
  beforeAll(async () => {
    await ingest([
      { type: 'identify', messageId: 'm-link', userId: 'Kira-77', anonymousId: 'Phone-Visitor-9' },
      purchase('Ord-ABC', { anonymousId: 'Phone-Visitor-9' }),
      purchase('Ord-DEF', { userId: 'Kira-77' }, { context: { traits: { email: 'Kira@Moss.example' } } }),
      purchase('Ord-XYZ', { userId: 'someone-else' }),
    ]);
  });

  it('finds an order ID, a user ID and a visitor in any letter case', async () => {
    expect(await eventIds('q=ord-abc')).toEqual(['Ord-ABC']);
    expect(await eventIds('q=KIRA-77')).toEqual(['Ord-DEF']);
    expect(await eventIds('q=phone-visitor-9')).toEqual(['Ord-ABC']);
  });

  it('finds the conversions of the person an email names, typed in any case, hashed as at ingest', async () => {
    expect(await eventIds(`q=${encodeURIComponent('  kira@MOSS.example ')}`)).toEqual(['Ord-ABC', 'Ord-DEF']);
    expect(await eventIds(`q=${encodeURIComponent('nobody@moss.example')}`)).toEqual([]);
  });
});

describe('erasure from the console', () => {
  beforeAll(async () => {
    await ingest([
      { type: 'identify', messageId: 'm-erase-link', userId: 'leaving-user', anonymousId: 'leaving-visitor', traits: { email: 'leaving@moss.example' } },
      { type: 'page', messageId: 'm-erase-page', anonymousId: 'leaving-visitor', context: { page: { url: 'https://moss.example/?ttclid=E.1' } } },
    ]);
  });

  it('is for owners only, names an unreadable field, and erases the person with a change-log entry in words', async () => {
    const editorTry = await editor('POST', `${ws}/erasures`, { email: 'leaving@moss.example' });
    expect([editorTry.statusCode, editorTry.json().message]).toEqual([403, 'your role (editor) cannot do this: it needs an owner']);
    expect((await owner('POST', `${ws}/erasures`, { email: 'leaving@moss.example' }, { 'x-csrf-token': 'forged' })).statusCode).toBe(403);
    const unreadable = await owner('POST', `${ws}/erasures`, { email: 'leaving at moss' });
    expect([unreadable.statusCode, unreadable.json().issues]).toEqual([400, ['email is not an email address (nor the SHA-256 of one)']]);
    expect((await owner('POST', `${ws}/erasures`, {})).json().issues).toEqual(['body must name the person by at least one of userId, anonymousId, email, phone']);

    const erased = await owner('POST', `${ws}/erasures`, { email: 'Leaving@Moss.example' });
    expect(erased.statusCode).toBe(201);
    expect(consoleErasureView.parse(erased.json()).summary).toBe("Erased one person's data: 2 events deleted, 1 visitor profile, 1 ad click, 4 identity links");
    expect(erased.json().counts).toEqual(expect.arrayContaining([{ field: 'Visitors found', before: '–', after: '1' }, { field: 'Events deleted', before: '–', after: '2' }]));
    expect(await testDb.db('events').where({ workspace_id: workspaceId }).whereIn('message_id', ['m-erase-link', 'm-erase-page']).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    expect(await testDb.db('visitors').where({ workspace_id: workspaceId, anonymous_id: 'leaving-visitor' }).first()).toBeUndefined();

    expect((await lastLogEntry()).summary).toBe("Erased one person's data: 2 events deleted, 1 visitor profile, 1 ad click, 4 identity links");
    const log = consoleErasureLogView.parse((await viewer('GET', `${ws}/erasures`)).json()).erasures;
    expect(log[0]).toMatchObject({ actorName: 'owner@moss.example', counts: expect.arrayContaining([{ field: 'Events deleted', before: '–', after: '2' }]) });
    expect(JSON.stringify(log)).not.toContain('leaving');
  });
});

describe('retention, consent and exchange rates', () => {
  it('saves each with a change-log entry in words, names a refused field, and is refused to a viewer', async () => {
    const refused = await editor('PATCH', `${ws}/settings`, { eventRetentionDays: 0 });
    expect(refused.json().issues).toEqual(['eventRetentionDays must be a whole number of days from 1 to 3650']);
    const badRate = await editor('PATCH', `${ws}/settings`, { exchangeRates: { EUR: '-1' } });
    expect(badRate.json().issues).toEqual([expect.stringMatching(/^exchangeRates\.EUR must be a positive decimal/)]);
    expect((await viewer('PATCH', `${ws}/settings`, { consentRequired: true })).statusCode).toBe(403);

    expect((await editor('PATCH', `${ws}/settings`, { eventRetentionDays: 14, consentRequired: true, exchangeRates: { EUR: '1.08' } })).json()).toMatchObject({
      eventRetentionDays: 14,
      consentRequired: true,
      exchangeRates: { EUR: '1.08' },
    });
    expect((await lastLogEntry()).summary).toBe('Set the exchange rates to EUR 1.08, required consent before tracking and changed how long events are kept to 14 days');
  });
});

describe('the Conversions table as a CSV file', () => {
  const csvOf = async (query: string) => {
    const answer = await viewer('GET', `${ws}/conversions.csv?${query}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="signalbox-conversions-${workspaceId}.csv"`);
    return answer.body.split('\r\n').filter((line) => line !== '');
  };

  beforeAll(async () => {
    // More than one page of the table (50) and of the export's own reads (500): 520 purchases, a few with awkward IDs.
    const batch = Array.from({ length: 520 }, (_, index) => purchase(`CSV-${String(index).padStart(3, '0')}`, { userId: `csv-${index}` }));
    for (let start = 0; start < batch.length; start += 100) await ingest(batch.slice(start, start + 100));
    await ingest([purchase('CSV-"quoted", and more', { userId: 'csv-q' }), purchase('=HYPERLINK("x")', { userId: 'csv-formula' })]);
    await finish('CSV-007', 'skipped', 'no_ttclid');
  });

  it('holds every conversion of the filter, once, newest event first, with the table\'s columns in words', async () => {
    const lines = await csvOf('timeZone=Europe/Berlin');
    expect(lines[0]).toBe('When (Europe/Berlin),Status,Reason,TikTok event,Your event,Order or event ID,Source,Value,Currency,Test mode,Conversion ID');
    const ids = lines.slice(1).map((line) => line.split(',')[5]).filter((id) => id !== undefined && /^CSV-\d{3}$/.test(id));
    expect(new Set(ids).size).toBe(520);
    expect(ids).toHaveLength(520);
    const skipped = lines.find((line) => line.includes(',CSV-007,'));
    expect(skipped).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},skipped,No TikTok click found,CompletePayment,purchase,CSV-007,Website,20,,no,[0-9a-f-]{36}$/);
    const times = lines.slice(1).map((line) => line.slice(0, 19));
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('writes a cell with quotes or commas quoted, a formula as text, and a negative value as a number', async () => {
    const lines = await csvOf('q=csv-q');
    expect(lines[1]).toContain(',"CSV-""quoted"", and more",');
    expect((await csvOf('q=csv-formula'))[1]).toContain(`,"'=HYPERLINK(""x"")",`);
    await testDb.db('conversions').where({ workspace_id: workspaceId, event_id: 'CSV-008' }).update({ value: -5 });
    expect((await csvOf('q=csv-8'))[1]).toContain(',purchase,CSV-008,Website,-5,');
  });

  it('takes the same filter as the table: the status, and a refusal naming the field', async () => {
    const skippedOnly = (await csvOf('status=skipped')).slice(1);
    expect(skippedOnly.every((line) => line.split(',')[1] === 'skipped')).toBe(true);
    expect(skippedOnly.filter((line) => line.includes(',CSV-'))).toEqual([expect.stringContaining(',CSV-007,')]);
    const refused = await viewer('GET', `${ws}/conversions.csv?status=sent`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual(['status must be one of pending, delivered, skipped, failed']);
  });
});
