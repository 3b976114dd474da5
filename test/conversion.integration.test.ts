import { FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { sha256Hex } from '../domain/hashing';
import { daysAgo, identify, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
});
afterAll(() => pipeline.close());

async function eventsSentFor(eventId: string) {
  const { events } = await pipeline.fake.receivedEvents();
  return events.filter((e) => e.eventId === eventId);
}

describe('conversion flow (spec §1.5)', () => {
  it('sends a purchase with its click, value, hashed email and phone, and the order as event_id', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const click = ttclid();
    await pipeline.ingest(ws, [landing('anon-1', click, daysAgo(2))]);
    const [conversion] = await pipeline.ingest(ws, [
      track('purchase', { userId: 'user-1', anonymousId: 'anon-1' }, { order_id: 'order-77', total: 129.9, currency: 'EUR' }, {
        context: { traits: { email: ' Alice@Example.com ', phone: '(213) 373-4253' }, ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
      }),
    ]);
    const settled = await pipeline.settled(conversion!);
    expect(settled).toMatchObject({ status: 'delivered', reason: null, attempts: 1, tiktok_code: 0, ttclid: click });
    expect(settled.tiktok_request_id).toMatch(/^\d{14}[0-9A-F]{20}$/);

    const [sent] = await eventsSentFor('order-77');
    expect(sent).toMatchObject({ eventSource: 'web', eventSourceId: FAKE_TIKTOK_PIXEL_CODE, event: 'CompletePayment', deduplicated: false, test: false });
    expect(sent?.payload).toMatchObject({
      user: {
        ttclid: click,
        ttp: 'ttp-anon-1',
        email: sha256Hex('alice@example.com'),
        phone: sha256Hex('+12133734253'),
        external_id: sha256Hex('user-1'),
        ip: '203.0.113.9',
      },
      properties: { value: 129.9, currency: 'EUR', order_id: 'order-77' },
    });
    expect(settled.request_payload).toEqual({ event_source: 'web', event_source_id: FAKE_TIKTOK_PIXEL_CODE, data: [sent?.payload] });
  });

  it('maps all seven standard events and sends a custom event under its own name with its properties', async () => {
    const names = ['purchase', 'add_to_cart', 'begin_checkout', 'signup', 'lead', 'view_content', 'search', 'subscription_started'];
    const ws = await pipeline.workspace({ rules: names.map((sourceEvent) => ({ sourceEvent })) });
    await pipeline.ingest(ws, [landing('anon-2', ttclid(), daysAgo(1))]);
    const conversions = await pipeline.ingest(
      ws,
      names.map((name) => track(name, { anonymousId: 'anon-2' }, { plan: 'pro', value: 12, currency: 'USD', query: 'red shoes', order_id: `o-${name}` })),
    );
    const settled = await Promise.all(conversions.map((c) => pipeline.settled(c)));
    expect(settled.map((c) => [c.source_event, c.tiktok_event, c.status])).toEqual(
      expect.arrayContaining([
        ['purchase', 'CompletePayment', 'delivered'],
        ['add_to_cart', 'AddToCart', 'delivered'],
        ['begin_checkout', 'InitiateCheckout', 'delivered'],
        ['signup', 'CompleteRegistration', 'delivered'],
        ['lead', 'SubmitForm', 'delivered'],
        ['view_content', 'ViewContent', 'delivered'],
        ['search', 'Search', 'delivered'],
        ['subscription_started', 'subscription_started', 'delivered'],
      ]),
    );
    const { events } = await pipeline.fake.receivedEvents();
    const custom = events.find((e) => e.event === 'subscription_started');
    expect(custom?.payload.properties).toMatchObject({ plan: 'pro' });
    const search = events.find((e) => e.event === 'Search' && e.eventSourceId === FAKE_TIKTOK_PIXEL_CODE && (e.payload.user as { ttp?: string }).ttp === 'ttp-anon-2');
    expect(search?.payload.properties).toMatchObject({ search_string: 'red shoes' });
    expect(search?.payload.properties).not.toHaveProperty('plan');
  });

  it('values a lead at the fixed configured amount, whatever the event says (spec §6.3)', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'lead', valueSource: 'fixed', fixedValue: 25, currency: 'USD' }] });
    await pipeline.ingest(ws, [landing('anon-3', ttclid(), daysAgo(1))]);
    const [conversion] = await pipeline.ingest(ws, [track('lead', { anonymousId: 'anon-3' }, { value: 999, currency: 'EUR' })]);
    await pipeline.settled(conversion!);
    const [sent] = await eventsSentFor(conversion!.event_id);
    expect(sent?.payload.properties).toEqual({ value: 25, currency: 'USD' });
  });
});

describe('attribution', () => {
  it('does not send a conversion without a ttclid', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { userId: 'never-clicked' }, { order_id: 'o-no-click', total: 5, currency: 'USD' })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'skipped', reason: 'no_ttclid', attempts: 0 });
    expect(await eventsSentFor('o-no-click')).toEqual([]);
  });

  it('sends a click inside the workspace window and not one outside it', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { attributionWindowDays: 7 } });
    await pipeline.ingest(ws, [landing('inside', ttclid(), daysAgo(6)), landing('outside', ttclid(), daysAgo(8))]);
    const [inside, outside] = await pipeline.ingest(ws, [
      track('purchase', { anonymousId: 'inside' }, { order_id: 'o-inside', total: 1, currency: 'USD' }),
      track('purchase', { anonymousId: 'outside' }, { order_id: 'o-outside', total: 1, currency: 'USD' }),
    ]);
    expect(await pipeline.settled(inside!)).toMatchObject({ status: 'delivered' });
    expect(await pipeline.settled(outside!)).toMatchObject({ status: 'skipped', reason: 'click_outside_attribution_window' });
    expect(await eventsSentFor('o-outside')).toEqual([]);
  });

  it('attributes a desktop purchase to the click on a phone that shared the email (spec §6.4)', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const phoneClick = ttclid();
    await pipeline.ingest(ws, [
      landing('phone-visitor', phoneClick, daysAgo(3)),
      track('newsletter_signup', { anonymousId: 'phone-visitor' }, { email: 'carol@example.com' }),
      identify('carol-desktop', 'desktop-visitor', { email: 'CAROL@example.com' }),
    ]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { userId: 'carol-desktop' }, { order_id: 'o-cross', total: 40, currency: 'USD' })]);
    const settled = await pipeline.settled(conversion!);
    expect(settled).toMatchObject({ status: 'delivered', ttclid: phoneClick, click_anonymous_id: 'phone-visitor' });
    const [sent] = await eventsSentFor('o-cross');
    expect(sent?.payload.user).toMatchObject({ ttclid: phoneClick, email: sha256Hex('carol@example.com') });
  });

  it('links earlier anonymous activity once a track carries both IDs, and the most recent click wins', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const older = ttclid();
    const newer = ttclid();
    await pipeline.ingest(ws, [landing('tablet', older, daysAgo(10)), landing('laptop', newer, daysAgo(2))]);
    await pipeline.ingest(ws, [track('login', { userId: 'dave', anonymousId: 'tablet' }), track('login', { userId: 'dave', anonymousId: 'laptop' })]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { userId: 'dave' }, { order_id: 'o-last-click', total: 3, currency: 'USD' })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered', ttclid: newer });
  });
});

describe('exactly once', () => {
  it('stores and delivers a repeated messageId once', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [landing('anon-dup', ttclid(), daysAgo(1))]);
    const purchase = track('purchase', { anonymousId: 'anon-dup' }, { order_id: 'o-dup', total: 10, currency: 'USD' });
    const [first] = await pipeline.ingest(ws, [purchase]);
    const again = await pipeline.ingest(ws, [purchase, purchase]);
    expect(again).toEqual([]);
    await pipeline.settled(first!);
    expect(await eventsSentFor('o-dup')).toHaveLength(1);
    expect(await pipeline.database.db('events').where({ workspace_id: ws.id, message_id: purchase.messageId }).count()).toEqual([{ count: '1' }]);
  });
});
