import type { FastifyInstance } from 'fastify';
import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { ConversionRow } from '../db/types';
import { buildTestApp } from './helpers/test-app';
import { runAgainst } from './helpers/cli';
import { TestPipeline } from './helpers/pipeline';

/**
 * The README's quick start, unchanged but for the event name, for a shop already instrumented for Segment: the CLI
 * and curl's requests over HTTP to the real app, conversions run by a real worker on the Temporal dev server, and
 * the fake TikTok receiving them.
 */
let pipeline: TestPipeline;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  app = buildTestApp(pipeline.database.db, { recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions, tiktokApiUrl: pipeline.fake.url }).app;
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await pipeline.close();
});
afterEach(() => pipeline.fake.clearFaults());

async function signalbox(...args: string[]) {
  const { code, stdout, stderr } = await runAgainst(url, args);
  if (code !== 0) throw new Error(`signalbox ${args.join(' ')} failed: ${stderr}`);
  return stdout;
}

const curl = (path: string, key: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function settledConversion(workspaceId: string, orderId: string): Promise<ConversionRow> {
  const row = (await pipeline.database.db('conversions').where({ workspace_id: workspaceId, event_id: orderId }).first()) as ConversionRow | undefined;
  if (row === undefined) throw new Error(`no conversion has the order ${orderId} as its event_id`);
  return pipeline.settled(row);
}

describe("a Segment-instrumented shop following the README's quick start", () => {
  let workspaceId: string;
  let key: string;

  beforeAll(async () => {
    workspaceId = /^ID: +(ws_\S+)$/m.exec(await signalbox('workspaces', 'create', 'My shop'))?.[1] as string;
    key = /^Key: +(dk_\S+)$/m.exec(await signalbox('keys', 'create', workspaceId, '--name', 'backend'))?.[1] as string;
    await signalbox('rules', 'put', workspaceId, 'Order Completed');
    await signalbox('tiktok', 'set', workspaceId, '--token', FAKE_TIKTOK_ACCESS_TOKEN, '--pixel', FAKE_TIKTOK_PIXEL_CODE);
    const page = await curl('/v1/page', key, {
      anonymousId: 'visitor-1',
      context: { page: { url: 'https://shop.example/?ttclid=E.C.P.segment-demo' }, ttp: '2F7h37YkS1j57AYSKTI7IHhJPYH' },
    });
    expect(page.status).toBe(200);
  });

  it('delivers Order Completed as CompletePayment valued at its total, and lists it with the request ID', async () => {
    const order = { event: 'Order Completed', userId: 'u-1', anonymousId: 'visitor-1', properties: { order_id: 'A-1001', total: 59.9, revenue: 52, currency: 'USD' } };
    expect(await (await curl('/v1/track', key, order)).json()).toEqual({ success: true });

    const conversion = await settledConversion(workspaceId, 'A-1001');
    expect(conversion).toMatchObject({ status: 'delivered', tiktok_event: 'CompletePayment', value: 59.9, currency: 'USD', warnings: [] });
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.filter((e) => e.eventId === 'A-1001')).toEqual([
      expect.objectContaining({ event: 'CompletePayment', payload: expect.objectContaining({ properties: expect.objectContaining({ value: 59.9, currency: 'USD' }) }) }),
    ]);
    const listed = await signalbox('conversions', 'list', workspaceId);
    expect(listed.split('\n')[0]).toMatch(/ TIKTOK REQUEST /);
    expect(listed).toContain(`${conversion.id}  delivered  Order Completed  CompletePayment  web     59.9 USD`);
    expect(listed).toContain(conversion.tiktok_request_id as string);
  });

  it('says that a re-sent order was a duplicate, and shows the new event that repeated its order_id', async () => {
    const order = { event: 'Order Completed', userId: 'u-1', anonymousId: 'visitor-1', properties: { order_id: 'A-2002', total: 20, currency: 'USD' } };
    await curl('/v1/track', key, order);
    const first = await settledConversion(workspaceId, 'A-2002');
    // The same request again is a retry (same content, so the same derived messageId): nothing is stored.
    expect(await (await curl('/v1/track', key, order)).json()).toEqual({ success: true, duplicates: { messages: 1, conversions: 0 } });
    // A new message for the same order (as Segment's libraries send it, with a messageId of its own) is stored.
    expect(await (await curl('/v1/track', key, { ...order, messageId: 'resent-A-2002' })).json()).toEqual({ success: true, duplicates: { messages: 0, conversions: 1 } });

    const shown = await signalbox('conversions', 'show', workspaceId, first.id);
    expect(shown).toMatch(/^Repeated by:\n {2}event \d+ \(Order Completed\) at \S+: same event_id A-2002, stored without a new conversion$/m);
    const duplicates = (await pipeline.database.db('events').where({ workspace_id: workspaceId, duplicate_of_conversion_id: first.id })) as { id: string }[];
    expect(duplicates).toHaveLength(1);
    expect(await signalbox('events', 'list', workspaceId, '--event', 'Order Completed')).toMatch(new RegExp(`^${duplicates[0]?.id} .* ${first.id}$`, 'm'));
    expect((await pipeline.fake.receivedEvents()).events.filter((e) => e.eventId === 'A-2002')).toHaveLength(1);
  });

  it('delivers an order whose total is not a number without a value, and shows why', async () => {
    const order = { event: 'Order Completed', userId: 'u-1', anonymousId: 'visitor-1', properties: { order_id: 'A-3003', total: '12,50', currency: 'EUR' } };
    await curl('/v1/track', key, order);
    const conversion = await settledConversion(workspaceId, 'A-3003');
    expect(conversion).toMatchObject({ status: 'delivered', value: null, warnings: [expect.objectContaining({ code: 'value_unreadable', field: 'properties.total', found: '"12,50"' })] });
    const [sent] = (await pipeline.fake.receivedEvents()).events.filter((e) => e.eventId === 'A-3003');
    expect(sent?.payload).toMatchObject({ event: 'CompletePayment' });
    expect((sent?.payload as { properties: Record<string, unknown> }).properties.value).toBeUndefined();
    expect(await signalbox('conversions', 'show', workspaceId, conversion.id)).toContain(
      'Warnings:\n  value_unreadable: properties.total is "12,50", not an amount (a number of zero or more, such as 12.5): the conversion is sent without a value',
    );
  });
});

describe('a rule that sends each Order Completed as several TikTok events (docs/sending-events.md: one event, several TikTok events)', () => {
  /** The workspace's conversions, in their rule's order, once none is pending any more. */
  async function settledConversions(workspaceId: string, count: number): Promise<ConversionRow[]> {
    const rows = (await pipeline.database.db('conversions').where({ workspace_id: workspaceId }).orderBy('rule_event_index')) as ConversionRow[];
    expect(rows).toHaveLength(count);
    return Promise.all(rows.map((row) => pipeline.settled(row)));
  }

  async function sentTo(eventIds: readonly string[]) {
    const { events } = await pipeline.fake.receivedEvents();
    return events.filter((e) => e.eventId !== undefined && eventIds.includes(e.eventId));
  }

  async function shopWithRule(name: string, ...ruleFlags: string[]) {
    const workspaceId = /^ID: +(ws_\S+)$/m.exec(await signalbox('workspaces', 'create', name))?.[1] as string;
    const key = /^Key: +(dk_\S+)$/m.exec(await signalbox('keys', 'create', workspaceId, '--name', 'backend'))?.[1] as string;
    const rule = await signalbox('rules', 'put', workspaceId, 'Order Completed', ...ruleFlags);
    await signalbox('tiktok', 'set', workspaceId, '--token', FAKE_TIKTOK_ACCESS_TOKEN, '--pixel', FAKE_TIKTOK_PIXEL_CODE);
    await curl('/v1/page', key, { anonymousId: 'visitor-1', context: { page: { url: 'https://shop.example/?ttclid=E.C.P.multi-event' }, ttp: '2F7h37YkS1j57AYSKTI7IHhJPYH' } });
    return { workspaceId, key, rule };
  }

  const order = (orderId: string) => ({ event: 'Order Completed', userId: 'u-1', anonymousId: 'visitor-1', properties: { order_id: orderId, total: 59.9, currency: 'USD' } });

  it('sends one order as CompletePayment and PlaceAnOrder, each once under its own event_id, also after the order is sent again', async () => {
    const { workspaceId, key, rule } = await shopWithRule('Two-event shop', '--also-send-as', 'PlaceAnOrder');
    expect(rule).toMatch(/^Order Completed +CompletePayment \+ PlaceAnOrder +order total +no +auto$/m);
    expect(rule).toContain('Each is also sent as PlaceAnOrder: one conversion per TikTok event');

    expect(await (await curl('/v1/track', key, order('M-1001'))).json()).toEqual({ success: true });
    const [payment, placed] = await settledConversions(workspaceId, 2);
    expect(payment).toMatchObject({ status: 'delivered', tiktok_event: 'CompletePayment', event_id: 'M-1001', value: 59.9 });
    expect(placed).toMatchObject({ status: 'delivered', tiktok_event: 'PlaceAnOrder', event_id: 'M-1001:PlaceAnOrder', value: 59.9 });

    // The same request again is a retry (same derived messageId); a new message for the same order repeats both.
    expect(await (await curl('/v1/track', key, order('M-1001'))).json()).toEqual({ success: true, duplicates: { messages: 1, conversions: 0 } });
    expect(await (await curl('/v1/track', key, { ...order('M-1001'), messageId: 'resent-M-1001' })).json()).toEqual({ success: true, duplicates: { messages: 0, conversions: 1 } });
    await settledConversions(workspaceId, 2);
    const repeat = await pipeline.database.db('events').where({ workspace_id: workspaceId, message_id: 'resent-M-1001' }).first();
    expect(repeat?.duplicate_of_conversion_id).toBe(payment?.id);

    const sent = await sentTo(['M-1001', 'M-1001:PlaceAnOrder']);
    expect(sent.map((e) => [e.event, e.eventId, e.deduplicated])).toEqual(
      expect.arrayContaining([
        ['CompletePayment', 'M-1001', false],
        ['PlaceAnOrder', 'M-1001:PlaceAnOrder', false],
      ]),
    );
    expect(sent).toHaveLength(2);
    for (const event of sent) {
      expect(event.payload).toMatchObject({ user: { ttclid: 'E.C.P.multi-event' }, properties: { value: 59.9, currency: 'USD', order_id: 'M-1001' } });
    }

    const listed = await signalbox('conversions', 'list', workspaceId);
    expect(listed).toContain(`${payment?.id}  delivered  Order Completed  CompletePayment (1 of 2)`);
    expect(listed).toContain(`${placed?.id}  delivered  Order Completed  PlaceAnOrder (2 of 2)`);
    expect(await signalbox('conversions', 'show', workspaceId, placed?.id as string)).toMatch(
      new RegExp(`^Message: +2 of 2 TikTok events sent for this message: CompletePayment \\(${payment?.id}, delivered\\), PlaceAnOrder \\(this one\\)$`, 'm'),
    );
  });

  it('fails and sends again one TikTok event of a message without touching the others', async () => {
    const { workspaceId, key } = await shopWithRule('Refused-event shop', '--also-send-as', 'PlaceAnOrder,Purchase');
    // TikTok refusing whatever request carries the PlaceAnOrder event: delivery splits it down to that event alone.
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, bodyIncludes: '"M-2002:PlaceAnOrder"', code: 40002, message: 'Invalid value for event_id.', times: 10 }]);
    await curl('/v1/track', key, order('M-2002'));
    const [payment, placed, purchase] = await settledConversions(workspaceId, 3);
    expect([payment, placed, purchase].map((c) => [c?.tiktok_event, c?.event_id, c?.status])).toEqual([
      ['CompletePayment', 'M-2002', 'delivered'],
      ['PlaceAnOrder', 'M-2002:PlaceAnOrder', 'failed'],
      ['Purchase', 'M-2002:Purchase', 'delivered'],
    ]);
    expect(placed).toMatchObject({ reason: 'tiktok_rejected', tiktok_code: 40002 });

    await pipeline.fake.clearFaults();
    expect(await signalbox('conversions', 'retry', workspaceId, placed?.id as string)).toBe(`Sending 1 conversion(s) again:\n${placed?.id}`);
    expect(await pipeline.settled(placed as ConversionRow)).toMatchObject({ status: 'delivered', tiktok_code: 0 });
    const accepted = (await sentTo(['M-2002', 'M-2002:PlaceAnOrder', 'M-2002:Purchase'])).filter((e) => !e.deduplicated);
    expect(accepted.map((e) => e.eventId).sort()).toEqual(['M-2002', 'M-2002:PlaceAnOrder', 'M-2002:Purchase']);
  });
});
