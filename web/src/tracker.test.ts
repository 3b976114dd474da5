import type { Message } from './queue';
import { memoryStore } from './store';
import { createTracker, LIBRARY, type PageInfo } from './tracker';
import { captureClick, loadVisitor } from './visitor';

const DAY = 86_400_000;
const landing: PageInfo = { url: 'https://shop.example/ferns?ttclid=E.C.P.abc', path: '/ferns', search: '?ttclid=E.C.P.abc', referrer: 'https://www.tiktok.com/', title: 'Ferns' };

/** `ttp: null` is a browser without TikTok's `_ttp` cookie. */
function tracked({ ttp = '2F7h37YkS1j57AYSKTI7IHhJPYH' as string | null } = {}) {
  const store = memoryStore();
  const pushed: Message[] = [];
  const warnings: string[] = [];
  let now = Date.UTC(2026, 0, 10);
  let ids = 0;
  const visitor = loadVisitor(store, () => 'anon-1');
  captureClick(store, landing.search, now, 30);
  const tracker = createTracker({
    queue: { push: (message) => pushed.push(message) },
    visitor,
    clicks: store,
    attributionDays: 30,
    warn: (text) => warnings.push(text),
    env: { page: () => landing, userAgent: 'Mozilla/5.0 Test', locale: 'en-GB', ttp: () => ttp ?? undefined, now: () => now, newId: () => `msg-${(ids += 1)}` },
  });
  return { tracker, pushed, warnings, advance: (ms: number) => (now += ms) };
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
    expect(pushed).toEqual([]);
    expect(warnings).toEqual([
      'track(event, properties): event must be a non-empty string',
      'track(event, properties): event must be a non-empty string',
      'identify(userId, traits): userId must be a non-empty string',
    ]);
  });
});
