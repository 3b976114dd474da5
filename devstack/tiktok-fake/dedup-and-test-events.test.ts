import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE, startFakeTikTok, type FakeTikTok } from './index';
import { hoursAfterT0, sampleEvent, sampleTrackBody, T0 } from './test-fixtures';

const SECOND_PIXEL = 'COQDA8RC77U2TMR44LI0';

let fake: FakeTikTok;

beforeAll(async () => {
  fake = await startFakeTikTok();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  await fake.reset();
  await fake.registerToken({
    accessToken: FAKE_TIKTOK_ACCESS_TOKEN,
    pixelCodes: [FAKE_TIKTOK_PIXEL_CODE, SECOND_PIXEL],
    advertiserIds: ['7391846250173946281'],
  });
  await fake.setClock(T0);
});

async function send(events: Record<string, unknown>[], overrides: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${fake.url}${EVENT_TRACK_PATH}`, {
    method: 'POST',
    headers: { 'Access-Token': FAKE_TIKTOK_ACCESS_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify(sampleTrackBody({ data: events, ...overrides })),
  });
  // TikTok answers 0 for duplicates too: dedup happens after acceptance.
  expect(await response.json()).toMatchObject({ code: 0 });
}

async function dedupFlags(): Promise<boolean[]> {
  return (await fake.receivedEvents()).events.map((event) => event.deduplicated);
}

describe('48-hour deduplication by (event_source_id, event, event_id)', () => {
  it('flags a repeat within 48 hours and counts it again once the window has passed', async () => {
    await send([sampleEvent()]);
    await fake.setClock(hoursAfterT0(47.99));
    await send([sampleEvent()]);
    await fake.setClock(hoursAfterT0(48));
    await send([sampleEvent()]);
    await fake.setClock(hoursAfterT0(49));
    await send([sampleEvent()]);

    expect(await dedupFlags()).toEqual([false, true, false, true]);
    const { events } = await fake.receivedEvents();
    expect(events.map((event) => event.receivedAt)).toEqual([
      T0.toISOString(),
      hoursAfterT0(47.99).toISOString(),
      hoursAfterT0(48).toISOString(),
      hoursAfterT0(49).toISOString(),
    ]);
  });

  it('treats another event name, another pixel or another event_id as a different event', async () => {
    await send([sampleEvent()]);
    await send([sampleEvent({ event: 'AddToCart' })]);
    await send([sampleEvent()], { event_source_id: SECOND_PIXEL });
    await send([sampleEvent({ event_id: 'ord_124' })]);
    expect(await dedupFlags()).toEqual([false, false, false, false]);
  });

  it('deduplicates a repeat inside the same request', async () => {
    await send([sampleEvent(), sampleEvent()]);
    expect(await dedupFlags()).toEqual([false, true]);
  });

  it('never deduplicates events that carry no event_id', async () => {
    await send([sampleEvent({ event_id: undefined }), sampleEvent({ event_id: undefined })]);
    expect(await dedupFlags()).toEqual([false, false]);
  });

  it('forgets everything on reset', async () => {
    await send([sampleEvent()]);
    await fake.reset();
    await send([sampleEvent()]);
    expect(await dedupFlags()).toEqual([false]);
  });
});

describe('test events', () => {
  it('flags events sent with test_event_code and keeps the code', async () => {
    await send([sampleEvent()], { test_event_code: 'TEST04030' });
    await send([sampleEvent({ event_id: 'ord_live' })]);
    const { events } = await fake.receivedEvents();
    expect(events.map(({ test, testEventCode, eventId }) => ({ test, testEventCode, eventId }))).toEqual([
      { test: true, testEventCode: 'TEST04030', eventId: 'ord_123' },
      { test: false, testEventCode: undefined, eventId: 'ord_live' },
    ]);
  });

  it('keeps test events apart from live events for deduplication', async () => {
    await send([sampleEvent()], { test_event_code: 'TEST04030' });
    await send([sampleEvent()]);
    await send([sampleEvent()], { test_event_code: 'TEST04030' });
    expect(await dedupFlags()).toEqual([false, false, true]);
  });
});
