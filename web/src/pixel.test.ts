import { createPixel, type PixelRule, type PixelSettings, type Ttq } from './pixel';
import type { Message } from './queue';
import { memoryStore } from './store';
import { createTracker, type ConsentState, type PageInfo } from './tracker';
import { loadVisitor } from './visitor';

const CODE = 'C9ABCDEFGHIJKLMNOPQR';
const LIBRARY_URL = 'https://analytics.tiktok.com/i18n/pixel/events.js';
const load: PixelSettings = { mode: 'load', code: CODE, libraryUrl: LIBRARY_URL, limitedDataUse: false };
const page: PixelSettings = { ...load, mode: 'page' };
const RULES: PixelRule[] = [
  { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder'], valueSource: 'order_total', fixedValue: null, currency: 'EUR' },
  { sourceEvent: 'signup', tiktokEvent: 'CompleteRegistration', alsoSendAs: [], valueSource: 'fixed', fixedValue: 5, currency: 'usd' },
  { sourceEvent: 'Product Added', tiktokEvent: 'AddToCart', alsoSendAs: [], valueSource: 'order_total', fixedValue: null, currency: null },
];
const shopPage: PageInfo = { url: 'https://shop.example/ferns', path: '/ferns', search: '', referrer: '', title: 'Ferns' };

/** TikTok's `ttq` as a page that installed the pixel itself has it, recording each call as the base code queues it. */
function recordingTtq() {
  const calls: unknown[][] = [];
  const record =
    (method: string) =>
    (...args: unknown[]) =>
      void calls.push([method, ...args]);
  const ttq: Ttq = {
    load: record('load'),
    page: record('page'),
    track: record('track'),
    identify: record('identify'),
    holdConsent: record('holdConsent'),
    grantConsent: record('grantConsent'),
    revokeConsent: record('revokeConsent'),
  };
  return { ttq, calls };
}

/** The tag's tracker and pixel wired as index.ts wires them (consent told first, then the calls kept meanwhile run). */
function tag(settings: PixelSettings | undefined, { consent = 'granted' as ConsentState, global = {} as Record<string, unknown>, rules = RULES } = {}) {
  const scripts: { src: string; queuedBefore: unknown[] }[] = [];
  const timers: (() => void)[] = [];
  const warnings: string[] = [];
  let state = consent;
  let ids = 0;
  const pixel = createPixel(settings, rules, {
    global,
    addScript: (src) => scripts.push({ src, queuedBefore: [...(global.ttq as unknown[])] }),
    schedule: (run) => timers.push(run),
    now: () => Date.UTC(2026, 0, 10),
    warn: (text) => warnings.push(text),
  });
  const store = memoryStore();
  const visitor = loadVisitor(store, () => 'anon-1');
  const queued: Message[] = [];
  const tracker = createTracker({
    queue: { push: (message) => queued.push(message) },
    visitor: () => visitor,
    consent: () => state,
    clicks: store,
    attributionDays: () => 30,
    warn: (text) => warnings.push(text),
    env: { page: () => shopPage, userAgent: 'Mozilla/5.0 Test', ttp: () => undefined, now: () => Date.UTC(2026, 0, 10), newId: () => `msg-${(ids += 1)}` },
    sent: (message) => pixel.sent(message),
  });
  pixel.consent(state);
  return {
    tracker,
    queued,
    scripts,
    warnings,
    /** What the stub queued for TikTok's library (load mode), each call as `[method, ...arguments]`. */
    stubQueue: () => [...(global.ttq as unknown[])],
    runTimers: () => timers.splice(0).forEach((run) => run()),
    decide(next: ConsentState) {
      state = next;
      pixel.consent(next);
      if (next === 'granted') tracker.release();
      if (next === 'revoked') tracker.discard();
    },
  };
}

describe('the tag drives TikTok’s pixel', () => {
  it('loads the pixel with TikTok’s base code, page views and the rule’s events under the message’s event_id', () => {
    const global: Record<string, unknown> = {};
    const { tracker, stubQueue, scripts, queued } = tag(load, { global });
    tracker.page();
    tracker.track('purchase', { order_id: 'o-1001', total: '46.00', currency: 'gbp', products: [{ product_id: 'F-1', price: 23, quantity: 2 }] });
    tracker.track('signup');
    tracker.track('newsletter_opened');
    expect(global.TiktokAnalyticsObject).toBe('ttq');
    expect(scripts.map((script) => script.src)).toEqual([`${LIBRARY_URL}?sdkid=${CODE}&lib=ttq`]);
    const ttq = global.ttq as { _i: Record<string, { _u: string }>; _o: Record<string, unknown>; methods: string[] };
    expect(ttq._i[CODE]?._u).toBe(LIBRARY_URL);
    expect(ttq._o[CODE]).toEqual({});
    expect(ttq.methods).toEqual(expect.arrayContaining(['page', 'track', 'identify', 'holdConsent', 'grantConsent', 'revokeConsent']));
    const purchase = { value: 46, currency: 'GBP', contents: [{ content_id: 'F-1', price: 23, quantity: 2 }], content_ids: ['F-1'], content_type: 'product', num_items: 2, order_id: 'o-1001' };
    expect(stubQueue()).toEqual([
      ['page'],
      ['track', 'CompletePayment', purchase, { event_id: 'o-1001' }],
      ['track', 'PlaceAnOrder', purchase, { event_id: 'o-1001:PlaceAnOrder' }],
      ['track', 'CompleteRegistration', { value: 5, currency: 'USD' }, { event_id: queued[2]?.messageId }],
    ]);
    expect(queued[2]?.messageId).toBe('msg-3');
  });

  it('takes the event_id the page gives, and sends no search text that may hold an email address or phone number', () => {
    const global: Record<string, unknown> = {};
    const rules: PixelRule[] = [{ sourceEvent: 'search', tiktokEvent: 'Search', alsoSendAs: [], valueSource: 'none', fixedValue: null, currency: null }];
    const { tracker, stubQueue } = tag(load, { global, rules });
    tracker.track('search', { query: 'ferns', eventId: 'px-7' });
    tracker.track('search', { query: 'ann@example.com' });
    tracker.track('search', { query: 'call +44 20 7183 8750' });
    expect(stubQueue()).toEqual([
      ['track', 'Search', { search_string: 'ferns' }, { event_id: 'px-7' }],
      ['track', 'Search', {}, { event_id: 'msg-2' }],
      ['track', 'Search', {}, { event_id: 'msg-3' }],
    ]);
  });

  it('holds the pixel’s consent before loading it, sends nothing while held, then the kept calls once granted', () => {
    const global: Record<string, unknown> = {};
    const { tracker, stubQueue, scripts, decide } = tag(load, { global, consent: 'held' });
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.queuedBefore).toEqual([['holdConsent']]);
    tracker.page();
    tracker.track('Product Added', { product_id: 'F-1', price: '8.50', quantity: 3 });
    expect(stubQueue()).toEqual([['holdConsent']]);
    decide('granted');
    expect(stubQueue()).toEqual([
      ['holdConsent'],
      ['grantConsent'],
      ['page'],
      ['track', 'AddToCart', { value: 25.5 }, { event_id: 'msg-2' }],
    ]);
  });

  it('drops the kept calls when consent is revoked, and loads no library for a visitor who refused until they agree', () => {
    const global: Record<string, unknown> = {};
    const held = tag(load, { global, consent: 'held' });
    held.tracker.track('purchase', { order_id: 'o-1' });
    held.decide('revoked');
    expect(held.stubQueue()).toEqual([['holdConsent'], ['revokeConsent']]);

    const refusedGlobal: Record<string, unknown> = {};
    const refused = tag(load, { global: refusedGlobal, consent: 'revoked' });
    refused.tracker.track('purchase', { order_id: 'o-2' });
    expect(refused.scripts).toEqual([]);
    expect(refusedGlobal).not.toHaveProperty('ttq');
    refused.decide('granted');
    refused.tracker.track('purchase', { order_id: 'o-3' });
    expect(refused.scripts).toHaveLength(1);
    expect(refused.stubQueue()).toEqual([
      ['revokeConsent'],
      ['grantConsent'],
      ['track', 'CompletePayment', { order_id: 'o-3' }, { event_id: 'o-3' }],
      ['track', 'PlaceAnOrder', { order_id: 'o-3' }, { event_id: 'o-3:PlaceAnOrder' }],
    ]);
  });

  it('identifies the visitor with the plain email, phone and user ID, which the pixel hashes itself', () => {
    const global: Record<string, unknown> = {};
    const { tracker, stubQueue } = tag(load, { global });
    tracker.identify('user-42', { email: ' Ann@Example.com ', phone: '+442071838750', plan: 'pro' });
    tracker.identify({ plan: 'team' });
    expect(stubQueue()).toEqual([
      ['identify', { email: 'Ann@Example.com', phone_number: '+442071838750', external_id: 'user-42' }],
      ['identify', { external_id: 'user-42' }],
    ]);
  });

  it('passes Limited Data Use to the pixel it loads', () => {
    const global: Record<string, unknown> = {};
    tag({ ...load, limitedDataUse: true }, { global });
    expect((global.ttq as { _o: Record<string, unknown> })._o[CODE]).toEqual({ limited_data_use: true });
  });

  it('uses the page’s own pixel, waiting for it when the page installs it later, and never loads a library', () => {
    const global: Record<string, unknown> = {};
    const { tracker, scripts, runTimers, decide } = tag(page, { global, consent: 'held' });
    tracker.track('signup');
    decide('granted');
    runTimers();
    const { ttq, calls } = recordingTtq();
    global.ttq = ttq;
    tracker.track('signup', { event_id: 'lead-9' });
    expect(calls).toEqual([]);
    runTimers();
    expect(calls).toEqual([
      ['holdConsent'],
      ['grantConsent'],
      ['track', 'CompleteRegistration', { value: 5, currency: 'USD' }, { event_id: 'msg-1' }],
      ['track', 'CompleteRegistration', { value: 5, currency: 'USD' }, { event_id: 'lead-9' }],
    ]);
    expect(scripts).toEqual([]);
  });

  it('tells the page’s pixel nothing about consent the visitor gave before, nor of page views, which its own snippet reports', () => {
    const { ttq, calls } = recordingTtq();
    const { tracker } = tag(page, { global: { ttq } });
    tracker.page();
    tracker.track('purchase', { order_id: 'o-1' });
    expect(calls.map(([method, event]) => `${method} ${event}`)).toEqual(['track CompletePayment', 'track PlaceAnOrder']);
  });

  it('uses a pixel the page already has instead of loading a second one, and says so', () => {
    const { ttq, calls } = recordingTtq();
    const { tracker, scripts, warnings } = tag(load, { global: { ttq } });
    tracker.page();
    tracker.track('purchase', { order_id: 'o-1' });
    expect(calls.map(([method, event]) => `${method} ${event}`)).toEqual(['track CompletePayment', 'track PlaceAnOrder']);
    expect(scripts).toEqual([]);
    expect(warnings).toEqual(["the page has a TikTok pixel of its own: the tag uses it and loads none (choose the setting that uses the page's pixel)"]);
  });

  it.each<[string, PixelSettings | undefined]>([
    ['off', { ...load, mode: 'off' }],
    ['absent (a config answer from before the pixel settings)', undefined],
    ['load without a pixel chosen', { ...load, code: null }],
  ])('never touches ttq when the pixel is %s', (_, settings) => {
    const { ttq, calls } = recordingTtq();
    const global: Record<string, unknown> = { ttq };
    const { tracker, scripts, queued, decide } = tag(settings, { global, consent: 'held' });
    decide('granted');
    tracker.page();
    tracker.track('purchase', { order_id: 'o-1' });
    decide('revoked');
    expect(calls).toEqual([]);
    expect(scripts).toEqual([]);
    expect(global.ttq).toBe(ttq);
    expect(queued.map((message) => message.type)).toEqual(['page', 'track']);
  });

  it('keeps the tag going when the page’s pixel throws', () => {
    const { ttq } = recordingTtq();
    ttq.track = () => {
      throw new Error('ttq is broken');
    };
    const { tracker, queued, warnings } = tag(page, { global: { ttq } });
    tracker.track('signup');
    tracker.track('signup');
    expect(queued).toHaveLength(2);
    expect(warnings).toEqual(["TikTok's pixel failed: ttq is broken", "TikTok's pixel failed: ttq is broken"]);
  });
});
