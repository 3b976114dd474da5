import { firstPartyCookies } from './first-party-cookies';

const now = Date.UTC(2026, 2, 10, 12);
const DAY = 86_400_000;
const workspace = { attributionWindowDays: 30 };
const request = (setCookies: unknown) => ({ batch: [], setCookies });

describe('firstPartyCookies', () => {
  it('sets the anonymous ID for 400 days and the click for what is left of the window, Secure on https', () => {
    const click = { id: 'E.C.P.abc', at: now - 10 * DAY };
    expect(firstPartyCookies(request({ anonymousId: 'anon 1', click }), 'https://shop.example', workspace, now)).toEqual([
      'sbx_aid=anon%201; Max-Age=34560000; Path=/; SameSite=Lax; Secure',
      `sbx_ttclid=${encodeURIComponent(JSON.stringify(click))}; Max-Age=${20 * 86_400}; Path=/; SameSite=Lax; Secure`,
    ]);
  });

  it("shares them with the site's subdomains when asked, only for a parent of the page's own host", () => {
    expect(firstPartyCookies(request({ anonymousId: 'a', domain: 'shop.example' }), 'http://www.shop.example', workspace, now)).toEqual([
      'sbx_aid=a; Max-Age=34560000; Path=/; SameSite=Lax; Domain=shop.example',
    ]);
    expect(firstPartyCookies(request({ anonymousId: 'a', domain: 'other.example' }), 'https://shop.example', workspace, now)).toEqual([]);
    expect(firstPartyCookies(request({ anonymousId: 'a', domain: 'hop.example' }), 'https://shop.example', workspace, now)).toEqual([]);
  });

  it('sets nothing without a request, an Origin or an anonymous ID, and no click past the window or from the future', () => {
    expect(firstPartyCookies({ batch: [] }, 'https://shop.example', workspace, now)).toEqual([]);
    expect(firstPartyCookies(request({ anonymousId: 'a' }), undefined, workspace, now)).toEqual([]);
    expect(firstPartyCookies(request({ anonymousId: '' }), 'https://shop.example', workspace, now)).toEqual([]);
    expect(firstPartyCookies(request({ anonymousId: 'a', click: { id: 'E.C.P.old', at: now - 31 * DAY } }), 'https://shop.example', workspace, now)).toHaveLength(1);
    expect(firstPartyCookies(request({ anonymousId: 'a', click: { id: 'E.C.P.x', at: now + DAY } }), 'https://shop.example', workspace, now)).toHaveLength(1);
    expect(firstPartyCookies(request({ anonymousId: 'a', click: { id: 42, at: now } }), 'https://shop.example', workspace, now)).toHaveLength(1);
  });
});
