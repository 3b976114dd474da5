import { cookieStore, layeredStore, readCookie, webStorageStore } from './store';
import { fakeCookieJar, fakeStorage } from './test-doubles';

describe('cookieStore', () => {
  it('writes first-party cookies with a lifetime, Lax, and Secure on https, and reads them back', () => {
    const jar = fakeCookieJar();
    const cookies = cookieStore(jar, { secure: true, domain: 'shop.example' });
    cookies.set('sbx_aid', 'a b;c', 30);
    expect(jar.written).toEqual(['sbx_aid=a%20b%3Bc; Max-Age=2592000; Path=/; SameSite=Lax; Domain=shop.example; Secure']);
    expect(cookies.get('sbx_aid')).toBe('a b;c');
    cookies.remove('sbx_aid');
    expect(cookies.get('sbx_aid')).toBeUndefined();
  });

  it('caps a lifetime at the 400 days browsers accept, and omits Secure on http', () => {
    const jar = fakeCookieJar();
    cookieStore(jar, { secure: false }).set('sbx_aid', 'x', 10_000);
    expect(jar.written).toEqual(['sbx_aid=x; Max-Age=34560000; Path=/; SameSite=Lax']);
  });

  it('leaves a server-set cookie to the server: never writes it, deletes it when a newer value goes elsewhere', () => {
    const jar = fakeCookieJar();
    jar.cookie = 'sbx_aid=from-server; Max-Age=34560000';
    const cookies = cookieStore(jar, { secure: true, readOnly: true });
    jar.written.length = 0;
    cookies.set('sbx_aid', 'from-server', 400);
    expect(jar.written).toEqual([]);
    cookies.set('sbx_aid', 'newer', 400);
    expect(jar.written).toEqual(['sbx_aid=; Max-Age=0; Path=/; SameSite=Lax; Secure']);
    expect(cookies.get('sbx_aid')).toBeUndefined();
  });

  it('neither throws nor finds anything when cookies are blocked', () => {
    const jar = fakeCookieJar();
    jar.blocked = true;
    const cookies = cookieStore(jar, { secure: true });
    expect(() => cookies.set('sbx_aid', 'x', 1)).not.toThrow();
    expect(cookies.get('sbx_aid')).toBeUndefined();
  });
});

describe('readCookie', () => {
  it("finds one cookie among others, keeps '=' inside values, and returns a value that is not percent-encoding as it is", () => {
    const header = 'other=1; _ttp=2F7h37YkS1j57AYSKTI7IHhJPYH; token=a=b; broken=%E0%A4%A';
    expect(readCookie(header, '_ttp')).toBe('2F7h37YkS1j57AYSKTI7IHhJPYH');
    expect(readCookie(header, 'token')).toBe('a=b');
    expect(readCookie(header, 'broken')).toBe('%E0%A4%A');
    expect(readCookie(header, 'ttp')).toBeUndefined();
    expect(readCookie('', '_ttp')).toBeUndefined();
  });
});

describe('webStorageStore', () => {
  it('keeps values in localStorage', () => {
    const storage = fakeStorage();
    webStorageStore(() => storage).set('sbx_queue', '[1]', 30);
    expect(storage.getItem('sbx_queue')).toBe('[1]');
    expect(webStorageStore(() => storage).get('sbx_queue')).toBe('[1]');
  });

  it('falls back to memory when localStorage cannot be written or opened', () => {
    const failing = fakeStorage({ failWrites: true });
    const store = webStorageStore(() => failing);
    store.set('sbx_queue', '[1]', 30);
    expect(store.get('sbx_queue')).toBe('[1]');
    expect(failing.length).toBe(0);

    const denied = webStorageStore(() => {
      throw new DOMException('Access is denied', 'SecurityError');
    });
    denied.set('sbx_aid', 'x', 1);
    expect(denied.get('sbx_aid')).toBe('x');
  });
});

describe('layeredStore (cookie with localStorage as its fallback)', () => {
  it('writes both, and reads localStorage when the cookie is gone or blocked', () => {
    const jar = fakeCookieJar();
    const storage = fakeStorage();
    const store = layeredStore([cookieStore(jar, { secure: true }), webStorageStore(() => storage)]);
    store.set('sbx_aid', 'visitor-1', 400);
    expect(readCookie(jar.cookie, 'sbx_aid')).toBe('visitor-1');
    expect(storage.getItem('sbx_aid')).toBe('visitor-1');

    jar.clear();
    expect(store.get('sbx_aid')).toBe('visitor-1');
    jar.blocked = true;
    expect(store.get('sbx_aid')).toBe('visitor-1');
  });

  it('prefers the cookie, which the site backend also sees', () => {
    const jar = fakeCookieJar();
    const storage = fakeStorage();
    storage.setItem('sbx_aid', 'from-storage');
    jar.cookie = 'sbx_aid=from-cookie; Max-Age=60';
    expect(layeredStore([cookieStore(jar, { secure: true }), webStorageStore(() => storage)]).get('sbx_aid')).toBe('from-cookie');
  });
});
