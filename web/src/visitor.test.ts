import { cookieStore, layeredStore, memoryStore, readCookie, webStorageStore } from './store';
import { fakeCookieJar, fakeStorage } from './test-doubles';
import { captureClick, CLICK_NAME, currentClick, forgetVisitor, loadVisitor, segmentAnonymousId } from './visitor';

const DAY = 86_400_000;

function browser() {
  const jar = fakeCookieJar();
  const storage = fakeStorage();
  const store = () => layeredStore([cookieStore(jar, { secure: true }), webStorageStore(() => storage)]);
  return { jar, storage, store };
}

describe('anonymous ID', () => {
  it('is made once and kept by the next page loads', () => {
    const { jar, store } = browser();
    let made = 0;
    const newId = () => `id-${(made += 1)}`;
    expect(loadVisitor(store(), newId).anonymousId()).toBe('id-1');
    expect(loadVisitor(store(), newId).anonymousId()).toBe('id-1');
    expect(readCookie(jar.cookie, 'sbx_aid')).toBe('id-1');
    expect(made).toBe(1);
  });

  it('survives cleared cookies through localStorage, and puts the cookie back for the backend', () => {
    const { jar, store } = browser();
    loadVisitor(store(), () => 'kept');
    jar.clear();
    expect(loadVisitor(store(), () => 'new').anonymousId()).toBe('kept');
    expect(readCookie(jar.cookie, 'sbx_aid')).toBe('kept');
  });

  it("adopts Segment's anonymous ID on a first visit, never over its own", () => {
    const { store } = browser();
    expect(loadVisitor(store(), () => 'new', () => 'ajs-1').anonymousId()).toBe('ajs-1');
    expect(loadVisitor(store(), () => 'new', () => 'ajs-2').anonymousId()).toBe('ajs-1');
  });

  it("reads Segment's JSON-quoted anonymous ID from its cookie or localStorage", () => {
    expect(segmentAnonymousId('"b7f3-11"', undefined)).toBe('b7f3-11');
    expect(segmentAnonymousId(undefined, '"from-storage"')).toBe('from-storage');
    expect(segmentAnonymousId('bare-id')).toBe('bare-id');
    expect(segmentAnonymousId('""', 'null', undefined)).toBeUndefined();
  });

  it('after reset() is a new ID, with the user and the click of the person before forgotten, cookie and storage alike', () => {
    const { jar, storage, store } = browser();
    const visitor = loadVisitor(store(), (() => { let n = 0; return () => `id-${(n += 1)}`; })());
    visitor.setUserId('first-person');
    captureClick(store(), '?ttclid=E.C.P.first', Date.UTC(2026, 0, 10), 30);
    visitor.reset();
    expect(visitor.anonymousId()).toBe('id-2');
    expect(loadVisitor(store(), () => 'unused').userId()).toBeUndefined();
    expect(readCookie(jar.cookie, 'sbx_aid')).toBe('id-2');
    expect([readCookie(jar.cookie, 'sbx_uid'), readCookie(jar.cookie, CLICK_NAME), storage.getItem('sbx_uid'), storage.getItem(CLICK_NAME)]).toEqual([undefined, undefined, null, null]);
  });

  it('is forgotten with every other identifier when consent is revoked', () => {
    const { jar, storage, store } = browser();
    loadVisitor(store(), () => 'a').setUserId('u');
    forgetVisitor(store());
    expect(jar.cookie).toBe('');
    expect(storage.length).toBe(0);
  });

  it('remembers the user named by identify', () => {
    const { store } = browser();
    loadVisitor(store(), () => 'a').setUserId('user-42');
    expect(loadVisitor(store(), () => 'b').userId()).toBe('user-42');
  });
});

describe('ttclid', () => {
  const landedAt = Date.UTC(2026, 0, 10);

  it('is captured from the landing URL and kept for the next visit, with the time of the click', () => {
    const { store } = browser();
    expect(captureClick(store(), '?utm_source=tiktok&ttclid=E.C.P.abc', landedAt, 30)).toEqual({ id: 'E.C.P.abc', at: landedAt });
    expect(captureClick(store(), '', landedAt + 3 * DAY, 30)).toEqual({ id: 'E.C.P.abc', at: landedAt });
  });

  it('keeps the first capture time when the landing URL is reloaded, and takes a newer click', () => {
    const store = memoryStore();
    captureClick(store, '?ttclid=E.C.P.one', landedAt, 30);
    expect(captureClick(store, '?ttclid=E.C.P.one', landedAt + DAY, 30)).toEqual({ id: 'E.C.P.one', at: landedAt });
    expect(captureClick(store, '?ttclid=E.C.P.two', landedAt + 2 * DAY, 30)).toEqual({ id: 'E.C.P.two', at: landedAt + 2 * DAY });
  });

  it('is forgotten once the attribution window has passed', () => {
    const store = memoryStore();
    captureClick(store, '?ttclid=E.C.P.old', landedAt, 7);
    expect(currentClick(store, landedAt + 7 * DAY, 7)).toEqual({ id: 'E.C.P.old', at: landedAt });
    expect(currentClick(store, landedAt + 7 * DAY + 1, 7)).toBeUndefined();
    expect(store.get(CLICK_NAME)).toBeUndefined();
  });

  it('ignores an empty ttclid and a kept value that is not a click', () => {
    const store = memoryStore();
    expect(captureClick(store, '?ttclid=', landedAt, 30)).toBeUndefined();
    store.set(CLICK_NAME, '{"id":42}', 30);
    expect(currentClick(store, landedAt, 30)).toBeUndefined();
    store.set(CLICK_NAME, 'not json', 30);
    expect(currentClick(store, landedAt, 30)).toBeUndefined();
  });
});
