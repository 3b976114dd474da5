import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { declared } from '../../test/helpers/declared-answer';
import { buildTestApp } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';

let testDb: TestDatabase;
let app: FastifyInstance;
let ws: string;
let key: string;
let viewer: ReturnType<typeof asPerson>;

interface Shown {
  eventName: string | null;
  type: string;
  outcome: { kind: string; text: string; conversions?: { id: string; tiktokEvent: string }[]; conversionId?: string; messageId?: string };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = buildTestApp(testDb.db).app;
  const workspaceId = await createWorkspace(app, 'Fern shop');
  ws = `workspaces/${workspaceId}`;
  key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json().key;
  const editor = asPerson(app, await personIn(app, workspaceId, 'ed@fern.example', 'editor'));
  viewer = asPerson(app, await personIn(app, workspaceId, 'vi@fern.example', 'viewer'));
  expect((await editor('PUT', `${ws}/rules/purchase`, { alsoSendAs: ['PlaceAnOrder'] })).statusCode).toBe(200);

  const ingest = (batch: object[]) => app.inject({ method: 'POST', url: '/v1/batch', payload: { batch }, headers: { authorization: `Bearer ${key}` } });
  const purchase = (messageId: string, orderId: string) => ({ type: 'track', messageId, event: 'purchase', userId: 'fern-lover', properties: { order_id: orderId, total: 20 } });
  expect((await ingest([purchase('order-1', 'F-1')])).statusCode).toBe(200);
  expect((await ingest([purchase('order-1-again', 'F-1')])).statusCode).toBe(200);
  expect(
    (
      await ingest([
        { type: 'track', messageId: 'wish-1', event: 'wishlist', userId: 'fern-lover' },
        { type: 'track', messageId: 'lead-1', event: 'lead', userId: 'fern-lover' },
        { type: 'page', messageId: 'page-1', anonymousId: 'visitor-1', name: 'Home' },
        { type: 'identify', messageId: 'who-1', userId: 'fern-lover', traits: { email: 'fern@lover.example' } },
      ])
    ).statusCode,
  ).toBe(200);
  // A rule for lead only after its event arrived.
  expect((await editor('PUT', `${ws}/rules/lead`, { value: { source: 'none' } })).statusCode).toBe(200);
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('the event debugger connects each event to its outcome', () => {
  it('shows the conversions an event became, the message a repeat repeated, a missing rule, a later rule, and what is no conversion', async () => {
    const batch = declared('GET', '/console/api/workspaces/:workspaceId/debugger', 200).parse((await viewer('GET', `${ws}/debugger`)).json()) as { events: (Shown & { message: { messageId: string } })[] };
    const events = batch.events.map((e) => [e.message.messageId, e.outcome]);
    const outcomes = Object.fromEntries(events) as Record<string, Shown['outcome']>;
    expect(outcomes['order-1']).toMatchObject({
      kind: 'conversions',
      text: 'Became 2 conversions: CompletePayment, PlaceAnOrder.',
      conversions: [expect.objectContaining({ tiktokEvent: 'CompletePayment', status: 'pending' }), expect.objectContaining({ tiktokEvent: 'PlaceAnOrder', status: 'pending' })],
    });
    const first = outcomes['order-1']?.conversions?.[0]?.id;
    expect(outcomes['order-1-again']).toMatchObject({ kind: 'duplicate', conversionId: first, messageId: 'order-1', tiktokEvent: 'CompletePayment' });
    expect(outcomes['wish-1']).toEqual({ kind: 'no_rule', eventName: 'wishlist', text: 'No conversion rule matches `wishlist`: the event is stored, and nothing was sent to TikTok.', warning: null });
    expect(outcomes['lead-1']).toMatchObject({ kind: 'rule_added_later', eventName: 'lead' });
    expect(outcomes['page-1']).toMatchObject({ kind: 'not_a_conversion', text: expect.stringContaining('A page view') });
    expect(outcomes['who-1']).toMatchObject({ kind: 'not_a_conversion', text: expect.stringContaining('An identify call') });

    // The conversion it links to is the workspace's, and its page opens.
    const conversion = await viewer('GET', `${ws}/conversions/${first}`);
    expect(declared('GET', '/console/api/workspaces/:workspaceId/conversions/:conversionId', 200).parse(conversion.json())).toMatchObject({ eventId: 'F-1', tiktokEvent: 'CompletePayment' });
  });
});
