import type { Message } from './queue';
import { memoryStore } from './store';
import { createTracker, LIBRARY, type ConsentState, type PageInfo } from './tracker';
import { captureClick, loadVisitor } from './visitor';

const DAY = 86_400_000;
const landing: PageInfo = { url: 'https://shop.example/ferns?ttclid=E.C.P.abc', path: '/ferns', search: '?ttclid=E.C.P.abc', referrer: 'https://www.tiktok.com/', title: 'Ferns' };

/** `ttp: null` is a browser without TikTok's `_ttp` cookie. */
function tracked({ ttp = '2F7h37YkS1j57AYSKTI7IHhJPYH' as string | null, consent = 'granted' as ConsentState } = {}) {
  const store = memoryStore();
  const pushed: Message[] = [];
  const warnings: string[] = [];
  let now = Date.UTC(2026, 0, 10);
  let ids = 0;
  let anonymousIds = 0;
  let state = consent;
  let page = landing;
  const visitor = loadVisitor(store, () => `anon-${(anonymousIds += 1)}`);
  captureClick(store, landing.search, now, 30);
  const tracker = createTracker({
    queue: { push: (message) => pushed.push(message) },
    visitor: () => visitor,
    consent: () => state,
    clicks: store,
    attributionDays: () => 30,
    warn: (text) => warnings.push(text),
    env: { page: () => page, userAgent: 'Mozilla/5.0 Test', locale: 'en-GB', ttp: () => ttp ?? undefined, now: () => now, newId: () => `msg-${(ids += 1)}` },
  });
  return {
    tracker,
    pushed,
    warnings,
    store,
    advance: (ms: number) => (now += ms),
    setConsent: (next: ConsentState) => (state = next),
    goTo: (next: PageInfo) => (page = next),
  };
}

describe('tracker', () => {
  it('records a page view with URL and referrer, the click, _ttp and the anonymous ID', () => {
    const { tracker, pushed } = tracked();
    tracker.page();
    expect(pushed).toEqual([
      {
        type: 'page',
        messageId: 'msg-1',
        timestamp: '2026-01-10T00:00:00.000Z',
        anonymousId: 'anon-1',
        context: { library: LIBRARY, page: landing, userAgent: 'Mozilla/5.0 Test', locale: 'en-GB', ttclid: 'E.C.P.abc', ttp: '2F7h37YkS1j57AYSKTI7IHhJPYH' },
        properties: landing,
      },
    ]);
  });

  it('carries the user named by identify on later events, and adds traits', () => {
    const { tracker, pushed } = tracked();
    tracker.identify('user-42', { email: 'ann@example.com' });
    tracker.track('purchase', { order_id: 'o-1', total: 12 });
    tracker.identify({ plan: 'pro' });
    expect(pushed.map(({ type, userId, traits, event, properties }) => ({ type, userId, traits, event, properties }))).toEqual([
      { type: 'identify', userId: 'user-42', traits: { email: 'ann@example.com' }, event: undefined, properties: undefined },
      { type: 'track', userId: 'user-42', traits: undefined, event: 'purchase', properties: { order_id: 'o-1', total: 12 } },
      { type: 'identify', userId: 'user-42', traits: { plan: 'pro' }, event: undefined, properties: undefined },
    ]);
  });

  it('names a page and lets its own properties win over the defaults', () => {
    const { tracker, pushed } = tracked();
    tracker.page('Ferns', { title: 'All ferns', category: 'plants' });
    tracker.page({ path: '/virtual' });
    expect(pushed[0]).toMatchObject({ name: 'Ferns', properties: { ...landing, title: 'All ferns', category: 'plants' } });
    expect(pushed[1]).not.toHaveProperty('name');
    expect(pushed[1]?.properties).toEqual({ ...landing, path: '/virtual' });
  });

  it('stops sending the click once the attribution window has passed, and sends no _ttp when there is none', () => {
    const { tracker, pushed, advance } = tracked({ ttp: null });
    advance(31 * DAY);
    tracker.track('viewed');
    expect(pushed[0]?.context).not.toHaveProperty('ttclid');
    expect(pushed[0]?.context).not.toHaveProperty('ttp');
  });

  it('warns about a call without its required argument and sends nothing', () => {
    const { tracker, pushed, warnings } = tracked();
    tracker.track('  ');
    tracker.track(undefined);
    tracker.identify('');
    tracker.alias(null);
    tracker.group('');
    tracker.setAnonymousId(' ');
    expect(pushed).toEqual([]);
    expect(warnings).toEqual([
      'track(event, properties): event must be a non-empty string',
      'track(event, properties): event must be a non-empty string',
      'identify(userId, traits): userId must be a non-empty string',
      'alias(userId, previousId): userId must be a non-empty string',
      'group(groupId, traits): groupId must be a non-empty string',
      'setAnonymousId(id): id must be a non-empty string',
    ]);
  });

  it('aliases the current user (else this browser) to a new user ID, and records a group', () => {
    const { tracker, pushed } = tracked();
    tracker.alias('user-new');
    tracker.identify('user-old');
    tracker.alias('user-new');
    tracker.alias('user-x', 'legacy-7');
    tracker.group('org-9', { plan: 'pro' });
    expect(pushed.filter((m) => m.type !== 'identify').map(({ type, userId, previousId, groupId, traits }) => ({ type, userId, previousId, groupId, traits }))).toEqual([
      { type: 'alias', userId: 'user-new', previousId: 'anon-1', groupId: undefined, traits: undefined },
      { type: 'alias', userId: 'user-new', previousId: 'user-old', groupId: undefined, traits: undefined },
      { type: 'alias', userId: 'user-x', previousId: 'legacy-7', groupId: undefined, traits: undefined },
      { type: 'group', userId: 'user-old', previousId: undefined, groupId: 'org-9', traits: { plan: 'pro' } },
    ]);
  });

  it('after reset() carries a new anonymous ID and neither the user nor the click of the person before', () => {
    const { tracker, pushed } = tracked();
    tracker.identify('first-person');
    tracker.reset();
    tracker.track('purchase');
    const after = pushed[pushed.length - 1];
    expect(after).toMatchObject({ type: 'track', anonymousId: 'anon-2' });
    expect(after).not.toHaveProperty('userId');
    expect(after?.context).not.toHaveProperty('ttclid');
  });

  it('adopts an anonymous ID given by the site', () => {
    const { tracker, pushed } = tracked();
    tracker.setAnonymousId('segment-anon-1');
    tracker.track('viewed');
    expect(pushed[0]?.anonymousId).toBe('segment-anon-1');
    expect(tracker.getAnonymousId()).toBe('segment-anon-1');
  });

  it('keeps calls in memory while consent is held, sends them with their own time and page once granted, and drops them when revoked', () => {
    const { tracker, pushed, store, advance, setConsent, goTo } = tracked({ consent: 'held' });
    tracker.page();
    tracker.identify('user-1');
    advance(5_000);
    goTo({ ...landing, url: 'https://shop.example/cart', path: '/cart', search: '' });
    tracker.track('add_to_cart');
    expect(pushed).toEqual([]);
    expect(tracker.getAnonymousId()).toBe('');
    setConsent('granted');
    tracker.release();
    expect(pushed.map((m) => [m.type, m.timestamp, (m.context as { page: PageInfo }).page.path, m.userId])).toEqual([
      ['page', '2026-01-10T00:00:00.000Z', '/ferns', undefined],
      ['identify', '2026-01-10T00:00:00.000Z', '/ferns', 'user-1'],
      ['track', '2026-01-10T00:00:05.000Z', '/cart', 'user-1'],
    ]);

    setConsent('held');
    tracker.track('later');
    tracker.discard();
    setConsent('revoked');
    tracker.track('never');
    tracker.release();
    expect(pushed).toHaveLength(3);
    expect(store.get('sbx_uid')).toBe('user-1');
  });
});
