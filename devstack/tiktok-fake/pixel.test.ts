import vm from 'node:vm';
import {
  EVENT_TRACK_PATH,
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_PIXEL_CODE,
  PIXEL_REPORT_PATH,
  PIXEL_SCRIPT_PATH,
  startFakeTikTok,
  type FakeTikTok,
} from './index';
import { hoursAfterT0, sampleEvent, sampleTrackBody, T0 } from './test-fixtures';

const OTHER_PIXEL = 'COQDA8RC77U2TMR44LI0';
const PAGE_URL = 'https://shop.example/checkout/thanks';

let fake: FakeTikTok;

beforeAll(async () => {
  fake = await startFakeTikTok();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  await fake.reset();
  await fake.registerToken({ accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCodes: [FAKE_TIKTOK_PIXEL_CODE, OTHER_PIXEL], advertiserIds: [] });
  await fake.setClock(T0);
});

function postReport(body: unknown, contentType = 'text/plain;charset=UTF-8'): Promise<Response> {
  return fetch(`${fake.url}${PIXEL_REPORT_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function pixelTrack(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pixelCode: FAKE_TIKTOK_PIXEL_CODE,
    method: 'track',
    event: 'CompletePayment',
    eventId: 'ord_123',
    properties: { value: 46, currency: 'USD' },
    url: PAGE_URL,
    ttp: 'Ab3dE5gH7jK9mN1pQ3sT5vW7yZ0',
    ...overrides,
  };
}

async function report(body: Record<string, unknown>): Promise<void> {
  expect((await postReport(body)).status).toBe(204);
}

async function sendToEventsApi(events: Record<string, unknown>[], overrides: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${fake.url}${EVENT_TRACK_PATH}`, {
    method: 'POST',
    headers: { 'Access-Token': FAKE_TIKTOK_ACCESS_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify(sampleTrackBody({ data: events, ...overrides })),
  });
  expect(await response.json()).toMatchObject({ code: 0 });
}

describe('POST /i18n/pixel/report', () => {
  it('records a tracked call as the pixel sent it, with open CORS', async () => {
    const response = await postReport(pixelTrack({ options: { limited_data_use: true }, identity: { email: 'fern@example.com' } }));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fake.receivedEvents()).pixelCalls).toEqual([
      {
        receivedAt: T0.toISOString(),
        pixelCode: FAKE_TIKTOK_PIXEL_CODE,
        method: 'track',
        event: 'CompletePayment',
        eventId: 'ord_123',
        properties: { value: 46, currency: 'USD' },
        options: { limited_data_use: true },
        loadOptions: {},
        url: PAGE_URL,
        ttp: 'Ab3dE5gH7jK9mN1pQ3sT5vW7yZ0',
        identity: { email: 'fern@example.com' },
        deduplicated: false,
      },
    ]);
  });

  it('answers a preflight for pages that send JSON', async () => {
    const response = await fetch(`${fake.url}${PIXEL_REPORT_PATH}`, { method: 'OPTIONS', headers: { Origin: 'https://shop.example' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
    expect((await postReport(pixelTrack(), 'application/json')).status).toBe(204);
  });

  it.each<[string, unknown, string]>([
    ['a body that is not JSON', '{not json', 'body: must be a JSON object'],
    ['a track without event', pixelTrack({ event: undefined }), 'event: is required for track'],
    ['an identify with an event', pixelTrack({ method: 'identify' }), 'event: identify carries no event or eventId'],
    ['a page URL that is not one', pixelTrack({ url: '/thanks' }), 'url: must be the URL of the page the call was made on'],
    ['an unknown method', pixelTrack({ method: 'alias' }), 'method: '],
    ['identity keys TikTok does not take', pixelTrack({ identity: { mail: 'x' } }), 'identity: '],
  ])('rejects %s, naming the field', async (_case, body, error) => {
    const response = await postReport(body as Record<string, unknown>);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(error);
    expect((await fake.receivedEvents()).pixelCalls).toEqual([]);
  });
});

describe('counting across the pixel and the Events API', () => {
  it('counts a purchase sent by both channels with the same event and event_id once, whichever comes first', async () => {
    await report(pixelTrack({ eventId: 'ord_1' }));
    await sendToEventsApi([sampleEvent({ event_id: 'ord_1' })]);
    await sendToEventsApi([sampleEvent({ event_id: 'ord_2' })]);
    await report(pixelTrack({ eventId: 'ord_2' }));

    expect(await fake.pixelCounts(FAKE_TIKTOK_PIXEL_CODE)).toEqual({
      pixelCode: FAKE_TIKTOK_PIXEL_CODE,
      events: [
        { event: 'CompletePayment', eventId: 'ord_1', pixel: 1, eventsApi: 1, counted: 1 },
        { event: 'CompletePayment', eventId: 'ord_2', pixel: 1, eventsApi: 1, counted: 1 },
      ],
      total: { pixel: 2, eventsApi: 2, counted: 2 },
    });
    const { events, pixelCalls } = await fake.receivedEvents();
    expect(pixelCalls.map((call) => call.deduplicated)).toEqual([false, true]);
    expect(events.map((event) => event.deduplicated)).toEqual([true, false]);
  });

  it('counts another event name, another event_id or a repeat after 48 hours again', async () => {
    await report(pixelTrack());
    await sendToEventsApi([sampleEvent({ event: 'AddToCart' })]);
    await sendToEventsApi([sampleEvent({ event_id: 'ord_124' })]);
    await fake.setClock(hoursAfterT0(47.9));
    await sendToEventsApi([sampleEvent()]);
    await fake.setClock(hoursAfterT0(48));
    await report(pixelTrack());

    expect((await fake.pixelCounts(FAKE_TIKTOK_PIXEL_CODE)).events).toEqual([
      { event: 'CompletePayment', eventId: 'ord_123', pixel: 2, eventsApi: 1, counted: 2 },
      { event: 'AddToCart', eventId: 'ord_123', pixel: 0, eventsApi: 1, counted: 1 },
      { event: 'CompletePayment', eventId: 'ord_124', pixel: 0, eventsApi: 1, counted: 1 },
    ]);
  });

  it('counts each page view and event without event_id, leaves identify, test events and other pixels out', async () => {
    await report({ pixelCode: FAKE_TIKTOK_PIXEL_CODE, method: 'page', event: 'Pageview', url: PAGE_URL, ttp: null });
    await report({ pixelCode: FAKE_TIKTOK_PIXEL_CODE, method: 'page', event: 'Pageview', url: PAGE_URL, ttp: null });
    await report({ pixelCode: FAKE_TIKTOK_PIXEL_CODE, method: 'identify', url: PAGE_URL, ttp: null, identity: { external_id: 'u1' } });
    await sendToEventsApi([sampleEvent({ event_id: undefined }), sampleEvent({ event_id: undefined })]);
    await sendToEventsApi([sampleEvent()], { test_event_code: 'TEST04030' });
    await report(pixelTrack({ pixelCode: OTHER_PIXEL }));

    expect(await fake.pixelCounts(FAKE_TIKTOK_PIXEL_CODE)).toEqual({
      pixelCode: FAKE_TIKTOK_PIXEL_CODE,
      events: [
        { event: 'Pageview', eventId: null, pixel: 2, eventsApi: 0, counted: 2 },
        { event: 'CompletePayment', eventId: null, pixel: 0, eventsApi: 2, counted: 2 },
      ],
      total: { pixel: 2, eventsApi: 2, counted: 4 },
    });
    // The test event did not take the live event's place: the other pixel's purchase is its own.
    expect((await fake.pixelCounts(OTHER_PIXEL)).events).toEqual([{ event: 'CompletePayment', eventId: 'ord_123', pixel: 1, eventsApi: 0, counted: 1 }]);
  });

  it('forgets pixel calls on reset', async () => {
    await report(pixelTrack());
    await fake.reset();
    await report(pixelTrack());
    expect((await fake.receivedEvents()).pixelCalls.map((call) => call.deduplicated)).toEqual([false]);
  });
});

/** A page for the stand-in script: a cookie jar behind document.cookie, and the fetches it makes. */
interface ScriptPage {
  globals: Record<string, unknown> & { ttq: Record<string, (...args: unknown[]) => unknown> & unknown[] };
  cookieLines: string[];
  cookies(): Record<string, string>;
  loadedScripts: string[];
  /** Runs the stand-in as the browser would once `ttq.load(code)` has added its script. */
  runStandIn(pixelCode: string): Promise<void>;
  /** Waits for every report the page has sent so far to be answered. */
  settle(): Promise<void>;
}

const STUB_METHODS = ['page', 'track', 'identify', 'instances', 'debug', 'on', 'off', 'once', 'ready', 'alias', 'group', 'enableCookie', 'disableCookie', 'holdConsent', 'revokeConsent', 'grantConsent'];

/** A queue stub built the way TikTok's base code builds `ttq` (its structure, written for this test). */
function installBaseCodeStub(globals: Record<string, unknown>, libraryUrl: string, addScript: (src: string) => void): void {
  const ttq = [] as unknown as Record<string, unknown> & unknown[];
  globals.TiktokAnalyticsObject = 'ttq';
  globals.ttq = ttq;
  const defer = (target: Record<string, unknown> & unknown[], method: string) => {
    target[method] = (...args: unknown[]) => target.push([method, ...args]);
  };
  for (const method of STUB_METHODS) defer(ttq, method);
  ttq.load = (code: string, options?: Record<string, unknown>) => {
    const instances = (ttq._i ??= {}) as Record<string, unknown[]>;
    instances[code] = [];
    ((ttq._o ??= {}) as Record<string, unknown>)[code] = options ?? {};
    addScript(`${libraryUrl}?sdkid=${code}&lib=ttq`);
  };
}

async function scriptPage(): Promise<ScriptPage> {
  const source = await (await fetch(`${fake.url}${PIXEL_SCRIPT_PATH}`)).text();
  const jar = new Map<string, string>();
  const cookieLines: string[] = [];
  const loadedScripts: string[] = [];
  const sent: Promise<unknown>[] = [];
  const document = {
    currentScript: { src: '' },
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      cookieLines.push(line);
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split('=');
      if (attributes.includes('max-age=0')) jar.delete(name);
      else jar.set(name, value);
    },
    createElement: () => ({}),
    head: { appendChild: (script: { src: string }) => loadedScripts.push(script.src) },
  };
  const globals: Record<string, unknown> = {
    document,
    location: new URL(PAGE_URL),
    URL,
    crypto,
    console,
    fetch: (...args: Parameters<typeof fetch>) => {
      const answer = fetch(...args);
      sent.push(answer);
      return answer;
    },
  };
  globals.window = globals;
  installBaseCodeStub(globals, `${fake.url}${PIXEL_SCRIPT_PATH}`, (src) => loadedScripts.push(src));
  const context = vm.createContext(globals);
  return {
    globals: globals as ScriptPage['globals'],
    cookieLines,
    cookies: () => Object.fromEntries(jar),
    loadedScripts,
    runStandIn: async (pixelCode) => {
      document.currentScript.src = `${fake.url}${PIXEL_SCRIPT_PATH}?sdkid=${pixelCode}&lib=ttq`;
      vm.runInContext(source, context);
    },
    settle: async () => {
      await Promise.all(sent);
    },
  };
}

describe('the pixel stand-in script', () => {
  it('is served as JavaScript to any origin', async () => {
    const response = await fetch(`${fake.url}${PIXEL_SCRIPT_PATH}?sdkid=${FAKE_TIKTOK_PIXEL_CODE}&lib=ttq`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('runs the calls queued before it arrived, sets _ttp and reports them with the identify keys', async () => {
    const page = await scriptPage();
    const { ttq } = page.globals;
    ttq.load(FAKE_TIKTOK_PIXEL_CODE, { limited_data_use: true });
    ttq.page();
    ttq.identify({ email: 'fern@example.com', phone_number: '+33612345678', external_id: 'user-7' });
    ttq.track('AddToCart', { value: 12.5, currency: 'EUR' }, { event_id: 'msg-1' });
    expect(page.loadedScripts).toEqual([`${fake.url}${PIXEL_SCRIPT_PATH}?sdkid=${FAKE_TIKTOK_PIXEL_CODE}&lib=ttq`]);

    await page.runStandIn(FAKE_TIKTOK_PIXEL_CODE);
    ttq.track('CompletePayment', { value: 59, currency: 'EUR' }, { event_id: 'order-9' });
    await page.settle();

    const ttp = page.cookies()._ttp;
    expect(ttp).toMatch(/^[A-Za-z0-9]{27}$/);
    // 127.0.0.1 or a one-label host would stay host-only; shop.example is a site the cookie is set on.
    expect(page.cookieLines).toContain(`_ttp=${ttp}; path=/; max-age=34190000; SameSite=Lax; domain=shop.example`);
    const identity = { email: 'fern@example.com', phone_number: '+33612345678', external_id: 'user-7' };
    // Reports travel side by side, as the pixel's do: their order of arrival is not the order of the calls.
    const calls = (await fake.receivedEvents()).pixelCalls
      .map(({ receivedAt: _at, ...call }) => call)
      .sort((a, b) => `${a.method}:${a.event}`.localeCompare(`${b.method}:${b.event}`));
    expect(calls).toEqual([
      { pixelCode: FAKE_TIKTOK_PIXEL_CODE, method: 'identify', properties: {}, options: {}, loadOptions: { limited_data_use: true }, url: PAGE_URL, ttp, identity, deduplicated: false },
      { pixelCode: FAKE_TIKTOK_PIXEL_CODE, method: 'page', event: 'Pageview', properties: {}, options: {}, loadOptions: { limited_data_use: true }, url: PAGE_URL, ttp, identity: {}, deduplicated: false },
      {
        pixelCode: FAKE_TIKTOK_PIXEL_CODE,
        method: 'track',
        event: 'AddToCart',
        eventId: 'msg-1',
        properties: { value: 12.5, currency: 'EUR' },
        options: {},
        loadOptions: { limited_data_use: true },
        url: PAGE_URL,
        ttp,
        identity,
        deduplicated: false,
      },
      expect.objectContaining({ method: 'track', event: 'CompletePayment', eventId: 'order-9', properties: { value: 59, currency: 'EUR' } }),
    ]);
  });

  it('keeps calls and the cookie back while consent is held, sends them once granted, and nothing after a revoke', async () => {
    const page = await scriptPage();
    const { ttq } = page.globals;
    ttq.holdConsent();
    ttq.load(FAKE_TIKTOK_PIXEL_CODE);
    ttq.track('CompletePayment', {}, { event_id: 'order-held' });
    await page.runStandIn(FAKE_TIKTOK_PIXEL_CODE);
    ttq.track('AddToCart', {}, { event_id: 'cart-held' });
    await page.settle();
    expect(page.cookies()).toEqual({});
    expect((await fake.receivedEvents()).pixelCalls).toEqual([]);

    ttq.grantConsent();
    await page.settle();
    const ttp = page.cookies()._ttp;
    expect(ttp).toMatch(/^[A-Za-z0-9]{27}$/);
    const sentIds = async () => (await fake.receivedEvents()).pixelCalls.map((call) => [call.eventId, call.ttp]).sort();
    expect(await sentIds()).toEqual([
      ['cart-held', ttp],
      ['order-held', ttp],
    ]);

    ttq.revokeConsent();
    ttq.track('CompletePayment', {}, { event_id: 'order-revoked' });
    ttq.page();
    await page.settle();
    expect(await sentIds()).toHaveLength(2);
  });

  it('drops calls held when consent is revoked instead of granted, and sets no cookie', async () => {
    const page = await scriptPage();
    const { ttq } = page.globals;
    ttq.holdConsent();
    ttq.load(FAKE_TIKTOK_PIXEL_CODE);
    await page.runStandIn(FAKE_TIKTOK_PIXEL_CODE);
    ttq.track('CompletePayment', {}, { event_id: 'order-held' });
    ttq.revokeConsent();
    await page.settle();
    expect(page.cookies()).toEqual({});
    expect((await fake.receivedEvents()).pixelCalls).toEqual([]);
  });

  it('reports a global call to every loaded pixel and an instance call to its own', async () => {
    const page = await scriptPage();
    const { ttq } = page.globals;
    ttq.load(FAKE_TIKTOK_PIXEL_CODE);
    ttq.load(OTHER_PIXEL);
    ttq.track('ViewContent', {}, { event_id: 'view-1' });
    await page.runStandIn(FAKE_TIKTOK_PIXEL_CODE);
    await page.runStandIn(OTHER_PIXEL);
    (ttq.instance(OTHER_PIXEL) as Record<string, (...args: unknown[]) => void>).track('AddToCart', {}, { event_id: 'cart-1' });
    await page.settle();
    const calls = (await fake.receivedEvents()).pixelCalls.map((call) => [call.pixelCode, call.eventId]).sort();
    expect(calls).toEqual([
      [OTHER_PIXEL, 'cart-1'],
      [OTHER_PIXEL, 'view-1'],
      [FAKE_TIKTOK_PIXEL_CODE, 'view-1'],
    ]);
  });
});
