import { createServer } from 'node:net';
import {
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_PIXEL_CODE,
  startFakeTikTok,
  type FakeTikTok,
} from '../../devstack/tiktok-fake';
import { sampleEvent, sha256Hex } from '../../devstack/tiktok-fake/test-fixtures';
import { createTikTokClient, type TikTokClient } from './client';
import { buildTikTokUrl, type TikTokCallRecord } from './request';
import type { TikTokTrackRequest } from '../../domain/tiktok-wire';

const REQUEST_ID = /^\d{14}[0-9A-F]{20}$/;

let fake: FakeTikTok;
let client: TikTokClient;

beforeAll(async () => {
  fake = await startFakeTikTok();
  client = createTikTokClient({ baseUrl: fake.url, timeoutMs: 1000 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  await fake.reset();
});

function trackRequest(overrides: Partial<TikTokTrackRequest> = {}): TikTokTrackRequest {
  return {
    event_source: 'web',
    event_source_id: FAKE_TIKTOK_PIXEL_CODE,
    data: [
      {
        event: 'CompletePayment',
        event_time: 1697783008,
        event_id: 'ord_123',
        user: { email: sha256Hex('alice_abc@gmail.com'), ttclid: 'E.C.P.CqgBrTJmZwA1', ttp: '2F7h37YkS1j57AYSKTI7IHhJPYH' },
        page: { url: 'https://shop.example/checkout' },
        properties: { value: 46, currency: 'USD', contents: [{ content_id: '1077218', quantity: 2, price: 8 }] },
      },
    ],
    ...overrides,
  };
}

describe('trackEvents: success', () => {
  it('posts the body with Access-Token and JSON content type and returns the request_id', async () => {
    const body = trackRequest({ test_event_code: 'TEST04030' });
    const result = await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, body);

    expect(result).toEqual({
      outcome: 'success',
      code: 0,
      message: 'OK',
      requestId: expect.stringMatching(REQUEST_ID),
      httpStatus: 200,
      body: { code: 0, message: 'OK', request_id: expect.any(String), data: {} },
    });
    const { requests, events } = await fake.receivedEvents();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      requestId: result.requestId,
      method: 'POST',
      path: '/open_api/v1.3/event/track/',
      headers: { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, contentType: 'application/json' },
    });
    expect(JSON.parse(requests[0]?.rawBody ?? '')).toEqual(body);
    expect(events).toMatchObject([{ event: 'CompletePayment', eventId: 'ord_123', test: true, testEventCode: 'TEST04030' }]);
  });

  it('treats 20001 (partial success) as success', async () => {
    await fake.injectFaults([{ code: 20001 }]);
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toMatchObject({
      outcome: 'success',
      code: 20001,
    });
  });

  it('tolerates an envelope without request_id and data', async () => {
    await fake.injectFaults([{ body: '{"code":0,"message":"ok"}' }]);
    const result = await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest());
    expect(result).toEqual({
      outcome: 'success',
      code: 0,
      message: 'ok',
      requestId: undefined,
      httpStatus: 200,
      body: { code: 0, message: 'ok', request_id: undefined },
    });
  });
});

describe('trackEvents: retryable outcomes', () => {
  it('40100 on HTTP 200 is throttling, with the request_id kept', async () => {
    await fake.injectFaults([{ code: 40100 }]);
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toEqual({
      outcome: 'retryable',
      throttled: true,
      code: 40100,
      message: 'Requests made too frequently. Please try again later.',
      requestId: expect.stringMatching(REQUEST_ID),
      httpStatus: 200,
    });
  });

  it('50002 is retryable without throttling', async () => {
    await fake.injectFaults([{ code: 50002 }]);
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toMatchObject({
      outcome: 'retryable',
      throttled: false,
      code: 50002,
    });
  });

  it('an nginx 502 HTML page is retryable and summarised in the message', async () => {
    await fake.injectFaults([{ httpStatus: 502 }]);
    const result = await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest());
    expect(result).toEqual({
      outcome: 'retryable',
      throttled: false,
      message: 'HTTP 502 Bad Gateway without a TikTok envelope: 502 Bad Gateway 502 Bad Gateway nginx',
      httpStatus: 502,
    });
  });

  it('HTTP 429 without an envelope is throttling', async () => {
    await fake.injectFaults([{ httpStatus: 429, body: 'Too Many Requests' }]);
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toMatchObject({
      outcome: 'retryable',
      throttled: true,
      httpStatus: 429,
    });
  });

  it('HTTP 200 with a body that is not JSON is retryable', async () => {
    await fake.injectFaults([{ body: '<html>maintenance</html>' }]);
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toMatchObject({
      outcome: 'retryable',
      httpStatus: 200,
      message: expect.stringContaining('maintenance'),
    });
  });

  it('an answer slower than the client timeout is a retryable timeout', async () => {
    const impatient = createTikTokClient({ baseUrl: fake.url, timeoutMs: 100 });
    await fake.injectFaults([{ latencyMs: 10_000 }]);
    const result = await impatient.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest());
    expect(result).toEqual({
      outcome: 'retryable',
      throttled: false,
      message: 'TikTok did not answer /open_api/v1.3/event/track/ within 100 ms',
    });
    expect((await fake.receivedEvents()).requests).toHaveLength(1);
  });

  it('a refused connection is a retryable network error', async () => {
    const unreachable = createTikTokClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(await unreachable.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toEqual({
      outcome: 'retryable',
      throttled: false,
      message: expect.stringMatching(/^Network error calling TikTok \/open_api\/v1\.3\/event\/track\/: .*ECONNREFUSED/),
    });
  });
});

describe('trackEvents: permanent outcomes', () => {
  it('40002 keeps TikTok’s message naming the field', async () => {
    const body = trackRequest({ data: [sampleEvent({ user: { email: 'alice_abc@gmail.com' } }) as never] });
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, body)).toEqual({
      outcome: 'permanent',
      tokenInvalid: false,
      code: 40002,
      message:
        'Invalid value for data[0].user.email: must be a SHA-256 hash (64 lower-case hex characters); plaintext is not accepted.',
      requestId: expect.stringMatching(REQUEST_ID),
      httpStatus: 200,
    });
  });

  it('40105 (unknown token) marks the token invalid', async () => {
    expect(await client.trackEvents('revoked-token', trackRequest())).toMatchObject({
      outcome: 'permanent',
      tokenInvalid: true,
      code: 40105,
    });
  });

  it('40104 (empty token) marks the token invalid', async () => {
    expect(await client.trackEvents('', trackRequest())).toMatchObject({
      outcome: 'permanent',
      tokenInvalid: true,
      code: 40104,
      message: 'Access token is null, you should set it in http header with key Access-Token.',
    });
  });

  it('40001 (no permission for the pixel) is permanent but keeps the token', async () => {
    const result = await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest({ event_source_id: 'COQDA8RC77U2TMR44LI0' }));
    expect(result).toMatchObject({ outcome: 'permanent', tokenInvalid: false, code: 40001 });
  });

  it('the body code wins over a 5xx status', async () => {
    await fake.injectFaults([{ httpStatus: 503, body: '{"code":40002,"message":"Invalid value for event_id: not a valid string."}' }]);
    expect(await client.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toEqual({
      outcome: 'permanent',
      tokenInvalid: false,
      code: 40002,
      message: 'Invalid value for event_id: not a valid string.',
      requestId: undefined,
      httpStatus: 503,
    });
  });

  it('an HTTP 404 for a wrong base path is permanent', async () => {
    const misconfigured = createTikTokClient({ baseUrl: `${fake.url}/proxy` });
    expect(await misconfigured.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest())).toMatchObject({
      outcome: 'permanent',
      tokenInvalid: false,
      httpStatus: 404,
    });
  });
});

describe('createTikTokClient options', () => {
  it.each([
    [{ baseUrl: 'business-api.tiktok.com' }, /baseUrl must be an http\(s\) URL/],
    [{ baseUrl: 'ftp://business-api.tiktok.com' }, /baseUrl must be an http\(s\) URL/],
    [{ baseUrl: 'https://business-api.tiktok.com', timeoutMs: 0 }, /timeoutMs must be a positive integer/],
  ])('rejects %j', (options, error) => {
    expect(() => createTikTokClient(options)).toThrow(error);
  });
});

describe('onCall', () => {
  it('is told of each call once it has ended: its path, duration and result, failures included', async () => {
    const calls: TikTokCallRecord[] = [];
    const observed = createTikTokClient({ baseUrl: fake.url, timeoutMs: 1000, onCall: (call) => calls.push(call) });
    await fake.injectFaults([{ code: 50002 }]);
    const failed = await observed.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest());
    const accepted = await observed.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, trackRequest());

    expect(calls).toEqual([
      { path: '/open_api/v1.3/event/track/', seconds: expect.any(Number), result: failed },
      { path: '/open_api/v1.3/event/track/', seconds: expect.any(Number), result: accepted },
    ]);
    expect(calls.map((call) => call.result.code)).toEqual([50002, 0]);
    expect(calls.every((call) => call.seconds > 0)).toBe(true);
  });
});

describe('buildTikTokUrl', () => {
  it('keeps a base path, drops a trailing slash and JSON-encodes array and object parameters', () => {
    const url = buildTikTokUrl('https://proxy.example/tiktok/', '/open_api/v1.3/report/integrated/get/', {
      advertiser_id: '7391846250173946281',
      dimensions: ['campaign_id', 'stat_time_day'],
      filtering: { campaign_ids: ['1'] },
      page: 2,
    });
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe('https://proxy.example/tiktok/open_api/v1.3/report/integrated/get/');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      advertiser_id: '7391846250173946281',
      dimensions: '["campaign_id","stat_time_day"]',
      filtering: '{"campaign_ids":["1"]}',
      page: '2',
    });
  });
});

/** A port that nothing listens on: bind one, then release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return address.port;
}
