import { FaultQueue } from './faults';
import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, startFakeTikTok, type FakeTikTok } from './index';
import { sampleEvent, sampleTrackBody } from './test-fixtures';

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

async function track(init: { token?: string; signal?: AbortSignal; body?: Record<string, unknown> } = {}): Promise<Answer> {
  const response = await fetch(`${fake.url}${EVENT_TRACK_PATH}`, {
    method: 'POST',
    headers: { 'Access-Token': init.token ?? FAKE_TIKTOK_ACCESS_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify(init.body ?? sampleTrackBody()),
    signal: init.signal,
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

const codeOf = (answer: Answer) => (JSON.parse(answer.text) as { code: number }).code;

async function control(method: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('fault injection', () => {
  it('answers an injected code once in the real envelope on HTTP 200, then behaves normally', async () => {
    await fake.injectFaults([{ code: 40100 }]);
    const faulted = await track();
    expect(faulted.status).toBe(200);
    expect(JSON.parse(faulted.text)).toEqual({
      code: 40100,
      message: 'Requests made too frequently. Please try again later.',
      request_id: expect.stringMatching(/^\d{14}[0-9A-F]{20}$/),
      data: {},
    });
    expect(codeOf(await track())).toBe(0);
  });

  it('consumes faults in order and honours times', async () => {
    await fake.injectFaults([
      { code: 50002, times: 2 },
      { code: 40133, message: 'Advertiser (7391846250173946281)’s QPS (21) reaches QPS limit 20 for current path.' },
    ]);
    const answers = [await track(), await track(), await track(), await track()];
    expect(answers.map(codeOf)).toEqual([50002, 50002, 40133, 0]);
    expect(JSON.parse(answers[2]?.text ?? '')).toMatchObject({
      message: 'Advertiser (7391846250173946281)’s QPS (21) reaches QPS limit 20 for current path.',
    });
  });

  it('keeps a fault for another path away from event/track', async () => {
    await fake.injectFaults([{ path: '/open_api/v1.3/report/integrated/get/', code: 50000 }, { path: EVENT_TRACK_PATH, code: 50002 }]);
    expect(codeOf(await track())).toBe(50002);
    expect(codeOf(await track())).toBe(0);
  });

  it('applies a fault naming body text only to requests that contain it, as often as asked', async () => {
    await fake.injectFaults([{ path: EVENT_TRACK_PATH, bodyIncludes: '"poisoned-1"', code: 40002, message: 'Invalid value for data[0].properties', times: 2 }]);
    const poisoned = sampleTrackBody({ data: [sampleEvent({ event_id: 'poisoned-1' })] });
    expect(codeOf(await track())).toBe(0);
    expect(codeOf(await track({ body: poisoned }))).toBe(40002);
    expect(codeOf(await track())).toBe(0);
    expect(codeOf(await track({ body: poisoned }))).toBe(40002);
    expect(codeOf(await track({ body: poisoned }))).toBe(0);
  });

  it('answers a gateway HTML page for an HTTP status fault and records it without request_id', async () => {
    await fake.injectFaults([{ httpStatus: 502 }]);
    const answer = await track();
    expect(answer.status).toBe(502);
    expect(answer.contentType).toMatch(/^text\/html/);
    expect(answer.text).toContain('<title>502 Bad Gateway</title>');
    const { requests, events } = await fake.receivedEvents();
    expect(requests).toMatchObject([{ requestId: null, answer: { httpStatus: 502 }, faulted: true }]);
    expect(events).toEqual([]);
  });

  it('answers a raw body with the given status', async () => {
    await fake.injectFaults([{ httpStatus: 503, body: 'upstream connect error' }]);
    const answer = await track();
    expect(answer).toEqual({ status: 503, contentType: expect.stringMatching(/^text\/html/), text: 'upstream connect error' });
  });

  it('delays the real answer for a latency-only fault', async () => {
    await fake.injectFaults([{ latencyMs: 50 }]);
    expect(codeOf(await track())).toBe(0);
    expect((await fake.receivedEvents()).events).toHaveLength(1);
  });

  it('holds the answer back for the injected latency', async () => {
    await fake.injectFaults([{ latencyMs: 10_000 }]);
    await expect(track({ signal: AbortSignal.timeout(200) })).rejects.toThrow(/aborted/i);
  });

  it('does not process a faulted request, so its events do not enter the dedup store', async () => {
    await fake.injectFaults([{ code: 50002 }]);
    await track();
    await track();
    const { requests, events } = await fake.receivedEvents();
    expect(requests.map((request) => request.faulted)).toEqual([true, false]);
    expect(events.map((event) => event.deduplicated)).toEqual([false]);
  });

  it('answers every request during a burst (forMs), and the faults queued after it once it is over', async () => {
    await fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40100, forMs: 60_000 }, { code: 50002 }]);
    const answers = [await track(), await track(), await track()];
    expect(answers.map(codeOf)).toEqual([40100, 40100, 40100]);
    await fake.clearFaults();
    expect(codeOf(await track())).toBe(0);

    let now = 0;
    const queue = new FaultQueue(() => now);
    queue.add([{ httpStatus: 503, forMs: 1_000 }, { code: 50002 }]);
    now = 999;
    expect(queue.take(EVENT_TRACK_PATH, '')).toEqual({ httpStatus: 503, forMs: 1_000 });
    now = 1_000;
    expect([queue.take(EVENT_TRACK_PATH, ''), queue.take(EVENT_TRACK_PATH, '')]).toEqual([{ code: 50002 }, undefined]);
  });

  it('forgets queued faults on DELETE /_fake/faults', async () => {
    await fake.injectFaults([{ code: 50000, times: 3 }]);
    await fake.clearFaults();
    expect(codeOf(await track())).toBe(0);
  });
});

describe('control API', () => {
  it.each<[string, unknown, RegExp]>([
    ['times below 1', { faults: [{ code: 50000, times: 0 }] }, /faults\.0\.times: /],
    ['times together with forMs', { faults: [{ code: 40100, times: 2, forMs: 1_000 }] }, /times and forMs are exclusive/],
    ['code together with body', { faults: [{ code: 50000, body: 'x' }] }, /code and body are exclusive/],
    ['a fault that does nothing', { faults: [{ path: EVENT_TRACK_PATH }] }, /needs at least one of code, body, httpStatus, latencyMs/],
    ['a misspelt key', { faults: [{ status: 502 }] }, /faults\.0: .*status/],
    ['a path without leading slash', { faults: [{ path: 'event/track/', code: 1 }] }, /faults\.0\.path: must be an API path/],
  ])('rejects faults with %s', async (_case, body, error) => {
    const answer = await control('POST', '/_fake/faults', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(error) });
  });

  it('rejects a clock that is not a date', async () => {
    expect(await control('PUT', '/_fake/clock', { now: 'next tuesday' })).toEqual({
      status: 400,
      body: { error: 'now: must be an ISO-8601 date-time or epoch milliseconds' },
    });
  });

  it('answers the pinned time and accepts epoch milliseconds', async () => {
    expect(await control('PUT', '/_fake/clock', { now: Date.UTC(2026, 0, 2) })).toEqual({
      status: 200,
      body: { now: '2026-01-02T00:00:00.000Z' },
    });
  });

  it('rejects a token grant with a non-numeric advertiser id', async () => {
    const answer = await control('POST', '/_fake/tokens', { accessToken: 't', pixelCodes: [], advertiserIds: ['adv-1'] });
    expect(answer).toEqual({ status: 400, body: { error: 'advertiserIds.0: must be a string of digits' } });
  });

  it('reset forgets registered tokens, faults and the received log but keeps the seed token', async () => {
    await fake.registerToken({ accessToken: 'temporary', pixelCodes: [], advertiserIds: [] });
    await fake.injectFaults([{ code: 50000 }]);
    await track();
    await fake.reset();

    expect(await fake.receivedEvents()).toEqual({ requests: [], events: [], pixelCalls: [] });
    expect(codeOf(await track({ token: 'temporary' }))).toBe(40105);
    expect(codeOf(await track())).toBe(0);
  });

  it('answers 404 for unknown control paths', async () => {
    expect((await fetch(`${fake.url}/_fake/nothing`)).status).toBe(404);
  });
});
