import type { FastifyInstance } from 'fastify';
import { hashEmail } from '../../domain/hashing';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';
import { daysOf } from '../../test/helpers/days';
import { consoleConversionDetailView } from '../../contract/conversion-detail';
import { debuggerBatchView } from '../../contract/debugger-views';
import { reasonsView } from '../../contract/views';
import { overviewView } from '../../contract/overview-views';
import { consoleRulesView } from '../../contract/past-event-views';
import { personView } from '../../contract/people-views';
import { installView } from '../../contract/setup-views';
import { consoleRetryView } from '../../contract/send-again-views';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let workspaceId: string;
let key: string;
let person: ReturnType<typeof asPerson>;
let ws: string;

/**
 * `from=…&to=…`: the days, in the zone asked, on which the workspace's events arrived. No message here carries a
 * timestamp, so each event and its conversion happened when it arrived.
 */
async function daysOfEvents(workspace: string, timeZone = 'UTC'): Promise<string> {
  const received = await testDb.db('events').where({ workspace_id: workspace }).pluck('received_at');
  const { from, to } = daysOf(received, timeZone);
  return `from=${from}&to=${to}&timeZone=${timeZone}`;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  workspaceId = await createWorkspace(app, 'Tea house');
  ws = `workspaces/${workspaceId}`;
  key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json().key;
  person = asPerson(app, await personIn(app, workspaceId, 'tea@tea.example', 'editor'));
  await person('PUT', `${ws}/rules/purchase`, {});
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

function ingest(body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/v1/batch', payload: body as object, headers: { authorization: `Bearer ${key}`, ...headers } });
}

/** Refusals are recorded in the background, after the answer. */
async function refusalsEventually(count: number) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const seen = debuggerBatchView.parse((await person('GET', `${ws}/debugger`)).json()).refusals;
    if (seen.length >= count) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('refusals were not recorded');
}

describe('the pages’ figures', () => {
  it('counts events and conversions on the overview, with reasons explained and event-id coverage', async () => {
    const purchase = (n: number, extra: object = {}) => ({ type: 'track', messageId: `p-${n}`, event: 'purchase', userId: `u-${n}`, properties: { order_id: `A-${n}`, total: 10 }, ...extra });
    expect((await ingest({ batch: [purchase(1), purchase(2), { type: 'page', messageId: 'v-1', anonymousId: 'a-1' }, { type: 'track', messageId: 't-1', event: 'wishlist', anonymousId: 'a-1' }] })).statusCode).toBe(200);
    const [first] = await subject.repos.conversionSearch.search(workspaceId, { limit: 10, text: { text: 'A-1', knownTiktokEvents: ['CompletePayment'], userIds: [], anonymousIds: [] } });
    await subject.repos.conversions.finish(first?.id as string, { status: 'skipped', reason: 'no_ttclid' });

    const overview = overviewView.parse((await person('GET', `${ws}/overview?${await daysOfEvents(workspaceId, 'Europe/Berlin')}`)).json());
    const events = overview.events.reduce((sum: Record<string, number>, e: { type: string; events: number }) => ({ ...sum, [e.type]: (sum[e.type] ?? 0) + e.events }), {});
    expect(events).toEqual({ track: 3, page: 1 });
    expect(overview.conversions.map((c: { status: string; reason: string | null; conversions: number }) => [c.status, c.reason, c.conversions]).sort()).toEqual([
      ['pending', null, 1],
      ['skipped', 'no_ttclid', 1],
    ]);
    expect(overview.tiktokEvents).toEqual([expect.objectContaining({ tiktokEvent: 'CompletePayment', status: 'no_recent_activity', lastDeliveredAt: null, learningPhase: { needed: 50, enough: false } })]);
    expect(overview.eventIds).toEqual({ conversions: 2, shareable: 2, share: 1 });
    expect(overview.reasons).toEqual([{ reason: 'no_ttclid', help: expect.objectContaining({ fix: expect.stringContaining('tracking tag') }) }]);
    expect(overview.matchKeys).toMatchObject({ delivered: 0, target: 0.6 });

    const rules = consoleRulesView.parse((await person('GET', `${ws}/rules`)).json());
    expect(rules.rules).toEqual([expect.objectContaining({ event: 'purchase', eventsLast7Days: 2, sample: expect.objectContaining({ message: expect.objectContaining({ event: 'purchase' }) }) })]);
    expect(rules.unmappedEvents).toEqual([{ event: 'wishlist', eventsLast7Days: 1, suggestedTiktokEvent: 'wishlist', warning: null }]);
  });

  it('rolls up what has settled (events to five minutes before, conversions to the hour before) without changing a figure, and rolls an hour up again when an old conversion changes', async () => {
    const overview = async () => overviewView.parse((await person('GET', `${ws}/overview?${await daysOfEvents(workspaceId)}`)).json());
    const before = await overview();
    // Two hours on: the events up to five minutes before, and the conversions of the hour before, are rolled up.
    const later = new Date(Date.now() + 2 * 3_600_000);
    await subject.repos.eventCounts.rollUp(later);
    expect(await subject.repos.conversionCounts.rollUp(later)).toMatchObject({ hours: expect.any(Number), rolledUpAgain: 0 });
    expect(await testDb.db('event_counts_hourly').where({ workspace_id: workspaceId }).sum<{ sum: number }[]>({ sum: 'events' })).toEqual([{ sum: 4 }]);
    expect(await testDb.db('conversion_counts_hourly').where({ workspace_id: workspaceId }).sum<{ sum: number }[]>({ sum: 'conversions' })).toEqual([{ sum: 2 }]);
    const after = await overview();
    expect([after.events, after.conversions, after.eventIds]).toEqual([before.events, before.conversions, before.eventIds]);

    // The pending conversion is delivered later (as a retry would), recorded in its history: the next run sees it.
    const [pending] = await subject.repos.conversionSearch.search(workspaceId, { limit: 1, text: { text: 'A-2', knownTiktokEvents: ['CompletePayment'], userIds: [], anonymousIds: [] } });
    await subject.repos.conversions.finish(pending?.id as string, { status: 'delivered', tiktokCode: 0 });
    await testDb.db('conversion_history').insert({ conversion_id: pending?.id as string, step: 'outcome', detail: { status: 'delivered' } });
    await subject.repos.conversionCounts.rollUp(later);
    expect(await subject.repos.conversionCounts.rollUp(later)).toMatchObject({ rolledUpAgain: 1 });
    const statuses = (await overview()).conversions.map((c: { status: string }) => c.status).sort();
    expect(statuses).toEqual(['delivered', 'skipped']);
    // The week's deliveries per TikTok event come from the rolled-up hours too.
    expect((await overview()).tiktokEvents).toEqual([expect.objectContaining({ tiktokEvent: 'CompletePayment', status: 'active', deliveredLast7Days: 1 })]);
  });

  it('shows a rule\'s additional TikTok events on the overview, and counts their event_ids as shareable only when the event\'s own is', async () => {
    const shopId = await createWorkspace(app, 'Sign-up shop');
    const shopKey = (await adminCall(app, 'POST', `/admin/workspaces/${shopId}/api-keys`, { name: 'backend' })).json().key;
    const editor = asPerson(app, await personIn(app, shopId, 'signup@tea.example', 'editor'));
    expect((await editor('PUT', `workspaces/${shopId}/rules/signup`, { alsoSendAs: ['Lead'] })).json()).toMatchObject({ tiktokEvent: 'CompleteRegistration', alsoSendAs: ['Lead'] });
    const signup = (n: number, properties: object = {}) => ({ type: 'track', messageId: `s-${n}`, event: 'signup', userId: `u-${n}`, properties });
    const sent = await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch: [signup(1, { event_id: 'px-1' }), signup(2)] }, headers: { authorization: `Bearer ${shopKey}` } });
    expect(sent.statusCode).toBe(200);
    expect((await testDb.db('conversions').where({ workspace_id: shopId }).orderBy('event_id')).map((c) => c.event_id)).toEqual(['px-1', 'px-1:Lead', 's-2', 's-2:Lead']);

    // The test before rolled every hour up: these conversions are counted as they are rolled up again.
    await subject.repos.conversionCounts.rollUp(new Date(Date.now() + 8 * 86_400_000));
    const overview = (await editor('GET', `workspaces/${shopId}/overview?${await daysOfEvents(shopId)}`)).json();
    expect(overview.tiktokEvents.map((e: { tiktokEvent: string }) => e.tiktokEvent)).toEqual(['CompleteRegistration', 'Lead']);
    expect(overview.eventIds).toEqual({ conversions: 4, shareable: 2, share: 0.5 });
  });

  it('finds conversions by status, reason and order ID, pages them, and explains one', async () => {
    const all = (await person('GET', `${ws}/conversions?limit=1`)).json();
    expect(all.conversions).toHaveLength(1);
    const next = (await person('GET', `${ws}/conversions?limit=1&cursor=${all.nextCursor}`)).json();
    expect(next.conversions).toHaveLength(1);
    expect(next.conversions[0].id).not.toBe(all.conversions[0].id);
    expect(next.nextCursor).toBeNull();

    const skipped = (await person('GET', `${ws}/conversions?status=skipped&reason=no_ttclid`)).json().conversions;
    expect(skipped.map((c: { eventId: string }) => c.eventId)).toEqual(['A-1']);
    expect((await person('GET', `${ws}/conversions?q=u-2`)).json().conversions.map((c: { eventId: string }) => c.eventId)).toEqual(['A-2']);
    expect((await person('GET', `${ws}/conversions?status=lost`)).json().issues).toEqual(['status must be one of pending, delivered, skipped, failed']);

    const detail = consoleConversionDetailView.parse((await person('GET', `${ws}/conversions/${skipped[0].id}`)).json());
    expect(detail).toMatchObject({ status: 'skipped', reason: 'no_ttclid', userId: 'u-1', help: { label: 'No TikTok click found', explanation: expect.stringContaining('No TikTok click ID') }, identityPath: null });
    expect(detail.timeline.map((entry) => entry.summary)).toEqual(['Your event `purchase` arrived', 'Became a conversion: `purchase` → CompletePayment', 'Not sent: No TikTok click found']);

    const { reasons } = reasonsView.parse((await person('GET', `${ws}/reasons`)).json());
    expect(reasons).toContainEqual({ reason: 'no_ttclid', label: 'No TikTok click found', explanation: expect.any(String), fix: expect.stringContaining('tracking tag') });
    expect(reasons.every((r) => r.label !== '' && !r.label.includes('_'))).toBe(true);
  });

  it('sends a skipped or failed conversion again through the retry service, never a delivered one', async () => {
    const [skipped] = await subject.repos.conversionSearch.search(workspaceId, { limit: 1, text: { text: 'A-1', knownTiktokEvents: ['CompletePayment'], userIds: [], anonymousIds: [] } });
    const [delivered] = await subject.repos.conversionSearch.search(workspaceId, { limit: 1, text: { text: 'A-2', knownTiktokEvents: ['CompletePayment'], userIds: [], anonymousIds: [] } });
    // Skipped for want of a click, sending again could only skip it again: not offered, and refused.
    expect((await person('GET', `${ws}/conversions/${skipped?.id}`)).json()).toMatchObject({ canSendAgain: false, sendAgainRefusal: expect.stringContaining('no TikTok click is known') });
    expect((await person('POST', `${ws}/conversions/${skipped?.id}/retry`)).statusCode).toBe(409);
    await testDb.db('conversions').where({ id: skipped?.id }).update({ reason: 'tiktok_not_connected' });
    expect((await person('GET', `${ws}/conversions/${skipped?.id}`)).json()).toMatchObject({ canSendAgain: true, sendAgainRefusal: null });
    expect((await person('POST', `${ws}/conversions/${delivered?.id}/retry`)).statusCode).toBe(409);
    expect(consoleRetryView.parse((await person('POST', `${ws}/conversions/${skipped?.id}/retry`)).json())).toEqual({ requeued: true });
    expect(await subject.repos.conversions.find(skipped?.id as string)).toMatchObject({ status: 'pending' });
    const entry = await testDb.db('change_log').where({ workspace_id: workspaceId, action: 'conversions.retry' }).orderBy('id', 'desc').first();
    expect(entry?.actor).toMatch(/^user:usr_/);
    const { timeline } = consoleConversionDetailView.parse((await person('GET', `${ws}/conversions/${skipped?.id}`)).json());
    expect(timeline.at(-1)).toEqual({ at: expect.any(String), summary: 'Sent again at the request of tea@tea.example', details: [{ label: 'Asked by', value: 'tea@tea.example' }] });
    expect((await person('POST', `${ws}/conversions/00000000-0000-4000-8000-000000000000/retry`)).statusCode).toBe(404);
  });

  it('shows accepted events and refused requests in the event debugger', async () => {
    const opened = debuggerBatchView.parse((await person('GET', `${ws}/debugger`)).json());
    expect(opened.events.length).toBeGreaterThan(0);
    await ingest({ batch: [{ type: 'track', messageId: 'late', event: 'signup', userId: 'u-9' }] });
    const after = debuggerBatchView.parse((await person('GET', `${ws}/debugger?afterEventId=${opened.cursor.afterEventId}&afterRefusalId=${opened.cursor.afterRefusalId}`)).json());
    expect(after.events.map((e) => e.eventName)).toEqual(['signup']);

    // Refusals are written in the background after the answer, so each is awaited before the next is made: the
    // debugger lists them in the order they were recorded.
    await ingest({ batch: [{ type: 'track', messageId: 'bad' }] });
    await refusalsEventually(1);
    await ingest({ batch: [{ type: 'track', messageId: 'x', event: 'e', userId: 'u' }] }, { 'x-workspace-id': 'ws_someone_else' });
    await refusalsEventually(2);
    const revoked = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'old' })).json();
    await adminCall(app, 'DELETE', `/admin/workspaces/${workspaceId}/api-keys/${revoked.id}`);
    await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch: [] }, headers: { authorization: `Bearer ${revoked.key}` } });

    const refusals = await refusalsEventually(3);
    expect(refusals.map((r) => [r.status, r.error, r.issues, r.keyPrefix])).toEqual([
      [400, 'invalid_request', ['batch[0].event is required for track messages'], key.slice(0, 9)],
      [403, 'forbidden', null, key.slice(0, 9)],
      [401, 'unauthorized', null, revoked.key.slice(0, 9)],
    ]);
    expect(JSON.stringify(refusals)).not.toContain(key);
  });

  it('looks a person up by email, hashing it, and shows their identifiers, events and conversions', async () => {
    await ingest({
      batch: [
        { type: 'page', messageId: 'land', anonymousId: 'phone-1', context: { page: { url: 'https://tea.example/?ttclid=E.C.P.abc' }, traits: { email: 'Jo@Tea.example' } } },
        { type: 'identify', messageId: 'id-1', userId: 'jo', anonymousId: 'desk-1', traits: { email: 'jo@tea.example' } },
        { type: 'track', messageId: 'jo-buys', event: 'purchase', userId: 'jo', properties: { total: 12, currency: 'EUR' } },
      ],
    });
    const found = personView.parse((await person('POST', `${ws}/people/lookup`, { kind: 'email', value: ' JO@tea.example ' })).json());
    expect(found.lookedUp).toEqual({ kind: 'email_sha256', value: hashEmail('jo@tea.example') });
    expect(found.identifiers.map((i) => `${i.kind}:${i.value}`)).toEqual(expect.arrayContaining(['anonymous_id:phone-1', 'anonymous_id:desk-1', 'user_id:jo']));
    expect(found.clicks).toEqual([expect.objectContaining({ anonymousId: 'phone-1', ttclid: 'E.C.P.abc' })]);
    expect(found.events).toHaveLength(3);
    expect(found.conversions).toEqual([expect.objectContaining({ eventId: 'jo-buys', currency: 'EUR' })]);
    expect((await person('POST', `${ws}/people/lookup`, { kind: 'phone', value: 'call me' })).json().issues).toEqual(['value is not a phone number Signalbox can match']);
  });

  it('gives the tag to install under PUBLIC_URL, whatever Host the request names, and the ad URL parameters', async () => {
    expect(installView.parse((await person('GET', `${ws}/install`, undefined, { host: 'attacker.example' })).json())).toEqual({
      ingestUrl: TEST_PUBLIC_URL,
      scriptUrl: `${TEST_PUBLIC_URL}/js/v1/signalbox.js`,
      adUrlParameters: 'campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__',
    });
  });

  it('takes a rule for any event name ingest accepts, in the console and the settings API alike, and names the limit past it', async () => {
    const longest = 'x'.repeat(200);
    const accented = 'é'.repeat(200);
    for (const event of [longest, accented]) {
      expect((await person('PUT', `${ws}/rules/${encodeURIComponent(event)}`, { tiktokEvent: 'ViewContent' })).statusCode).toBe(200);
      expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/${encodeURIComponent(event)}`, { tiktokEvent: 'Search' })).statusCode).toBe(200);
      expect(await subject.repos.conversionRules.find(workspaceId, event)).toMatchObject({ tiktokEvent: 'Search' });
      expect((await person('DELETE', `${ws}/rules/${encodeURIComponent(event)}`)).json()).toEqual({ event, deleted: true });
    }
    const tooLong = encodeURIComponent(`${longest}y`);
    expect((await person('PUT', `${ws}/rules/${tooLong}`, {})).json().issues).toEqual(['event must be at most 200 characters']);
    expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/${tooLong}`, {})).json().issues).toEqual(['event must be at most 200 characters']);
  });
});
