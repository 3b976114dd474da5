import {
  EVENT_TRACK_PATH,
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_CRM_EVENT_SET_ID,
  FAKE_TIKTOK_OFFLINE_EVENT_SET_ID,
  FAKE_TIKTOK_PIXEL_CODE,
  startFakeTikTok,
  type FakeTikTok,
} from './index';
import { sampleEvent, sampleTrackBody, sha256Hex } from './test-fixtures';

let fake: FakeTikTok;

beforeAll(async () => {
  fake = await startFakeTikTok();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  await fake.reset();
});

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function post(
  rawBody: string,
  { token = FAKE_TIKTOK_ACCESS_TOKEN, path = EVENT_TRACK_PATH }: { token?: string | null; path?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== null) headers['Access-Token'] = token;
  const response = await fetch(`${fake.url}${path}`, { method: 'POST', headers, body: rawBody });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

async function track(body: unknown, options?: { token?: string | null }): Promise<Record<string, unknown>> {
  const answer = await post(JSON.stringify(body), options);
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^application\/json/);
  return JSON.parse(answer.text) as Record<string, unknown>;
}

describe('successful event/track', () => {
  it('answers the envelope with code 0 and a 34-character request_id stamped with the current UTC time', async () => {
    await fake.setClock(new Date('2026-03-14T13:00:39Z'));
    const envelope = await track(sampleTrackBody());
    expect(envelope).toEqual({ code: 0, message: 'OK', request_id: expect.any(String), data: {} });
    expect(envelope.request_id).toMatch(/^20260314130039[0-9A-F]{20}$/);
  });

  it('records the request with its headers, raw body and answer, and the accepted event', async () => {
    const rawBody = JSON.stringify(sampleTrackBody());
    const answer = await post(rawBody);
    const { request_id: requestId } = JSON.parse(answer.text) as { request_id: string };

    const { requests, events } = await fake.receivedEvents();
    expect(requests).toEqual([
      {
        requestId,
        receivedAt: expect.any(String),
        method: 'POST',
        path: EVENT_TRACK_PATH,
        headers: { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, contentType: 'application/json', userAgent: 'node' },
        rawBody,
        answer: { httpStatus: 200, code: 0, message: 'OK' },
        faulted: false,
      },
    ]);
    expect(events).toEqual([
      {
        requestId,
        receivedAt: requests[0]?.receivedAt,
        answerCode: 0,
        eventSource: 'web',
        eventSourceId: FAKE_TIKTOK_PIXEL_CODE,
        event: 'CompletePayment',
        eventId: 'ord_123',
        eventTime: 1697783008,
        deduplicated: false,
        test: false,
        payload: sampleEvent(),
      },
    ]);
  });

  it('accepts exactly 1,000 events and rejects 1,001 as a whole', async () => {
    const events = (count: number) =>
      Array.from({ length: count }, (_, index) => sampleEvent({ event_id: `ord_${index}` }));

    expect(await track(sampleTrackBody({ data: events(1000) }))).toMatchObject({ code: 0 });
    expect(await track(sampleTrackBody({ data: events(1001) }))).toEqual({
      code: 40002,
      message: 'Invalid value for data: must not contain more than 1000 events (got 1001).',
      request_id: expect.any(String),
      data: {},
    });
    expect((await fake.receivedEvents()).events).toHaveLength(1000);
  });

  it('accepts custom properties, string-array identifiers and events without event_id', async () => {
    const event = sampleEvent({
      event: 'subscription_started',
      event_id: undefined,
      user: { email: [sha256Hex('a@example.com'), sha256Hex('b@example.com')], external_id: sha256Hex('user_123') },
      properties: { value: 9.99, currency: 'EUR', plan: 'pro' },
    });
    expect(await track(sampleTrackBody({ data: [event] }))).toMatchObject({ code: 0 });
  });

  it('accepts city, state and country in plain text beside hashed names and ZIP code, and content_ids with num_items (reference §1.3, §1.4)', async () => {
    const event = sampleEvent({
      user: { first_name: sha256Hex('mary'), last_name: sha256Hex('oneil'), zip_code: sha256Hex('94103'), city: 'sanfrancisco', state: 'ca', country: 'us' },
      properties: { contents: [{ content_id: 'fern-1', quantity: 2 }], content_ids: ['fern-1'], num_items: 1, content_type: 'product' },
    });
    expect(await track(sampleTrackBody({ data: [event] }))).toMatchObject({ code: 0 });
  });
});

describe('Access-Token checks', () => {
  it('answers 40104 with TikTok’s text when the header is missing', async () => {
    expect(await track(sampleTrackBody(), { token: null })).toEqual({
      code: 40104,
      message: 'Access token is null, you should set it in http header with key Access-Token.',
      request_id: expect.any(String),
      data: {},
    });
  });

  it('answers 40105 for a token the fake does not know', async () => {
    expect(await track(sampleTrackBody(), { token: 'not-a-known-token' })).toMatchObject({ code: 40105 });
  });

  it('answers 40001 when the token may not use the pixel, and accepts it once granted', async () => {
    await fake.registerToken({ accessToken: 'other-token', pixelCodes: ['COQDA8RC77U2TMR44LI0'], advertiserIds: ['1'] });
    expect(await track(sampleTrackBody(), { token: 'other-token' })).toMatchObject({
      code: 40001,
      message: `No permission to operate pixel code: ${FAKE_TIKTOK_PIXEL_CODE}. You must be an admin or operator of this advertiser account.`,
    });
    expect(
      await track(sampleTrackBody({ event_source_id: 'COQDA8RC77U2TMR44LI0' }), { token: 'other-token' }),
    ).toMatchObject({ code: 0 });
  });

  it('checks the token before the body', async () => {
    expect(JSON.parse((await post('{not json', { token: null })).text)).toMatchObject({ code: 40104 });
  });
});

/** A CRM event of a lead, under the main advertiser's CRM Event Set. */
const crmBody = (overrides: Record<string, unknown> = {}) =>
  sampleTrackBody({ event_source: 'crm', event_source_id: FAKE_TIKTOK_CRM_EVENT_SET_ID, data: [sampleEvent({ event: 'Lead Qualified', lead: { lead_id: 'hs-123', lead_event_source: 'HubSpot' }, ...overrides })] });

describe('offline and CRM events', () => {
  it("accepts an offline standard event under the advertiser's Offline Event Set and a CRM custom event with its lead under its CRM Event Set", async () => {
    expect(await track(sampleTrackBody({ event_source: 'offline', event_source_id: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID }))).toMatchObject({ code: 0 });
    expect(await track(crmBody())).toMatchObject({ code: 0 });
    const { events } = await fake.receivedEvents();
    expect(events.map((e) => [e.eventSource, e.eventSourceId, e.event])).toEqual([
      ['offline', FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, 'CompletePayment'],
      ['crm', FAKE_TIKTOK_CRM_EVENT_SET_ID, 'Lead Qualified'],
    ]);
    expect(events[1]?.payload.lead).toEqual({ lead_id: 'hs-123', lead_event_source: 'HubSpot' });
  });

  it("answers 40001 for an event set that is not one of the token's advertisers' (or is of the other kind)", async () => {
    for (const [source, id] of [['offline', '7391846250173950003'], ['offline', FAKE_TIKTOK_CRM_EVENT_SET_ID], ['offline', FAKE_TIKTOK_PIXEL_CODE]]) {
      expect(await track(sampleTrackBody({ event_source: source, event_source_id: id }))).toMatchObject({
        code: 40001,
        message: `No permission to operate event set: ${id}. It is not an event set of an advertiser this token is authorized for.`,
      });
    }
    expect(await track({ ...crmBody(), event_source_id: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID })).toMatchObject({ code: 40001 });
  });
});

describe('validation: 40002 names the field, and one bad event fails the whole request', () => {
  const withEvent = (overrides: Record<string, unknown>) => sampleTrackBody({ data: [sampleEvent(overrides)] });
  const withUser = (user: Record<string, unknown>) => withEvent({ user });
  const withProperties = (properties: Record<string, unknown>) => withEvent({ properties });
  const plaintext = 'must be a SHA-256 hash (64 lower-case hex characters); plaintext is not accepted';

  it.each<[string, unknown, string]>([
    ['event_source outside the enum', sampleTrackBody({ event_source: 'email' }), 'Invalid value for event_source: must be one of web, app, offline, crm.'],
    ['event_source missing', sampleTrackBody({ event_source: undefined }), 'Missing required field: event_source.'],
    ['numeric event_source_id', sampleTrackBody({ event_source_id: 7123 }), 'Invalid value for event_source_id: not a valid string.'],
    ['data missing', sampleTrackBody({ data: undefined }), 'Missing required field: data.'],
    ['data empty', sampleTrackBody({ data: [] }), 'Invalid value for data: must contain at least one event.'],
    ['data not an array', sampleTrackBody({ data: sampleEvent() }), 'Invalid value for data: must be an array of events.'],
    ['an event that is not an object', sampleTrackBody({ data: ['CompletePayment'] }), 'Invalid value for data[0]: must be an object.'],
    ['event missing', withEvent({ event: undefined }), 'Missing required field: data[0].event.'],
    ['event empty', withEvent({ event: '' }), 'Invalid value for data[0].event: must not be empty.'],
    ['event_time as a string', withEvent({ event_time: '1697783008' }), 'Invalid value for data[0].event_time: must be an integer Unix time in seconds.'],
    ['event_time with a fraction', withEvent({ event_time: 1697783008.5 }), 'Invalid value for data[0].event_time: must be an integer Unix time in seconds.'],
    ['event_time in milliseconds', withEvent({ event_time: 1697783008000 }), 'Invalid value for data[0].event_time: looks like milliseconds; send whole seconds.'],
    ['event_time missing', withEvent({ event_time: undefined }), 'Missing required field: data[0].event_time.'],
    ['event_time not positive', withEvent({ event_time: -1 }), 'Invalid value for data[0].event_time: must be a positive Unix time in seconds.'],
    ['numeric event_id', withEvent({ event_id: 1616318632825 }), 'Invalid value for data[0].event_id: not a valid string.'],
    ['plaintext email', withUser({ email: 'alice_abc@gmail.com' }), `Invalid value for data[0].user.email: ${plaintext}.`],
    ['plaintext phone inside an array', withUser({ phone: [sha256Hex('+12133734253'), '+12133734253'] }), `Invalid value for data[0].user.phone[1]: ${plaintext}.`],
    ['upper-case hex external_id', withUser({ external_id: sha256Hex('user_123').toUpperCase() }), `Invalid value for data[0].user.external_id: ${plaintext}.`],
    ['plaintext first_name', withUser({ first_name: 'mary' }), `Invalid value for data[0].user.first_name: ${plaintext}.`],
    ['plaintext zip_code', withUser({ zip_code: '94103' }), `Invalid value for data[0].user.zip_code: ${plaintext}.`],
    ['plaintext last_name', withUser({ last_name: 'oneil' }), `Invalid value for data[0].user.last_name: ${plaintext}.`],
    ['country as an array', withUser({ country: ['us'] }), 'Invalid value for data[0].user.country: not a valid string.'],
    ['numeric state', withUser({ state: 6 }), 'Invalid value for data[0].user.state: not a valid string.'],
    ['numeric email', withUser({ email: 5 }), 'Invalid value for data[0].user.email: must be a string or an array of strings.'],
    ['numeric ttclid', withUser({ ttclid: 12 }), 'Invalid value for data[0].user.ttclid: not a valid string.'],
    ['ttp as an object', withUser({ ttp: {} }), 'Invalid value for data[0].user.ttp: not a valid string.'],
    ['value as a string', withProperties({ value: '46' }), 'Invalid value for data[0].properties.value: must be a number.'],
    ['unknown currency', withProperties({ currency: 'XYZ' }), 'Invalid value for data[0].properties.currency: must be a supported ISO 4217 currency code, e.g. USD.'],
    ['numeric content_id', withProperties({ contents: [{ content_id: 1077218 }] }), 'Invalid value for data[0].properties.contents[0].content_id: not a valid string.'],
    ['fractional quantity', withProperties({ contents: [{ content_id: 'a', quantity: 1.5 }] }), 'Invalid value for data[0].properties.contents[0].quantity: must be an integer.'],
    ['price as a string', withProperties({ contents: [{ content_id: 'a', price: '8' }] }), 'Invalid value for data[0].properties.contents[0].price: must be a number.'],
    ['an unknown content_type', withProperties({ content_type: 'sku' }), 'Invalid value for data[0].properties.content_type: must be one of product, product_group.'],
    ['numeric content_ids', withProperties({ content_ids: [1077218] }), 'Invalid value for data[0].properties.content_ids[0]: not a valid string.'],
    ['fractional num_items', withProperties({ num_items: 2.5 }), 'Invalid value for data[0].properties.num_items: must be an integer.'],
    ['numeric page.url', withEvent({ page: { url: 42 } }), 'Invalid value for data[0].page.url: not a valid string.'],
    ['an app event without its app', sampleTrackBody({ event_source: 'app' }), 'Missing required field: data[0].app.app_id.'],
    ['an empty app_id', sampleTrackBody({ event_source: 'app', data: [sampleEvent({ app: { app_id: '' } })] }), 'Invalid value for data[0].app.app_id: must not be empty.'],
    ['an offline event under a custom name', sampleTrackBody({ event_source: 'offline', data: [sampleEvent({ event: 'StoreVisit' })] }), 'Invalid value for data[0].event: offline events must be standard events.'],
    ['a crm event under a standard name', crmBody({ event: 'Lead' }), 'Invalid value for data[0].event: crm events must be custom events, not standard ones.'],
    ['a crm event without its lead', crmBody({ lead: undefined }), 'Missing required field: data[0].lead.lead_id.'],
    ['a crm event with an empty lead_id', crmBody({ lead: { lead_id: '' } }), 'Invalid value for data[0].lead.lead_id: must not be empty.'],
    ['numeric test_event_code', sampleTrackBody({ test_event_code: 4030 }), 'Invalid value for test_event_code: not a valid string.'],
    ['a body that is an array', [sampleTrackBody()], 'Invalid request body: must be a JSON object.'],
  ])('%s', async (_case, body, message) => {
    expect(await track(body)).toEqual({ code: 40002, message, request_id: expect.any(String), data: {} });
  });

  it('rejects the whole request when only the second event is invalid, recording no event', async () => {
    const body = sampleTrackBody({ data: [sampleEvent(), sampleEvent({ event_id: 'ord_2', event_time: 'yesterday' })] });
    expect(await track(body)).toMatchObject({
      code: 40002,
      message: 'Invalid value for data[1].event_time: must be an integer Unix time in seconds.',
    });
    const { requests, events } = await fake.receivedEvents();
    expect(events).toEqual([]);
    expect(requests.map((request) => request.answer?.code)).toEqual([40002]);
  });

  it.each([
    ['a body that is not JSON', '{"event_source":', /^Request body is not valid JSON: /],
    ['an empty body', '', /^Request body is empty; expected a JSON object\.$/],
  ])('answers 40002 on HTTP 200 for %s', async (_case, rawBody, message) => {
    const answer = await post(rawBody);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ code: 40002, message: expect.stringMatching(message), request_id: expect.any(String), data: {} });
  });

  it('accepts plaintext identifiers when started with requireHashedPii: false', async () => {
    const lenient = await startFakeTikTok({ requireHashedPii: false });
    try {
      const response = await fetch(`${lenient.url}${EVENT_TRACK_PATH}`, {
        method: 'POST',
        headers: { 'Access-Token': FAKE_TIKTOK_ACCESS_TOKEN, 'Content-Type': 'application/json' },
        body: JSON.stringify(sampleTrackBody({ data: [sampleEvent({ user: { email: 'alice_abc@gmail.com' } })] })),
      });
      expect(await response.json()).toMatchObject({ code: 0 });
    } finally {
      await lenient.close();
    }
  });
});

describe('routing', () => {
  it.each([
    ['an unknown path', '/open_api/v1.3/event/unknown/'],
    ['the track path without its trailing slash', '/open_api/v1.3/event/track'],
    ['the legacy Events 1.0 path', '/open_api/v1.3/pixel/track/'],
  ])('answers HTTP 404 for %s and records nothing', async (_case, path) => {
    const answer = await post(JSON.stringify(sampleTrackBody()), { path });
    expect(answer.status).toBe(404);
    expect((await fake.receivedEvents()).requests).toEqual([]);
  });

  it('answers HTTP 404 for GET on the track path', async () => {
    const response = await fetch(`${fake.url}${EVENT_TRACK_PATH}`, { headers: { 'Access-Token': FAKE_TIKTOK_ACCESS_TOKEN } });
    expect(response.status).toBe(404);
  });
});
