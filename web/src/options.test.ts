import { answersOnSiteDomain, parseOptions } from './options';

describe('script tag options', () => {
  it('posts to the server the script came from, path prefix included', () => {
    expect(parseOptions({ key: 'pk_abc' }, 'https://ingest.example/js/v1/signalbox.js')).toEqual({
      writeKey: 'pk_abc',
      endpoint: 'https://ingest.example/v1/batch',
      configUrl: 'https://ingest.example/js/v1/config/pk_abc',
      attributionDays: undefined,
      cookieDomain: undefined,
      autoPage: true,
      historyPages: false,
      serverCookies: undefined,
    });
    const proxied = parseOptions({ key: 'pk_abc' }, 'https://shop.example/signalbox/js/v1/signalbox.js?v=2');
    expect([proxied.endpoint, proxied.configUrl]).toEqual(['https://shop.example/signalbox/v1/batch', 'https://shop.example/signalbox/js/v1/config/pk_abc']);
  });

  it('takes data-host, data-attribution-days, data-cookie-domain, data-auto-page and data-server-cookies', () => {
    expect(parseOptions({ key: 'pk_abc', host: 'https://events.shop.example/', attributionDays: '7', cookieDomain: '.shop.example', autoPage: 'false', serverCookies: 'false' }, '')).toEqual({
      writeKey: 'pk_abc',
      endpoint: 'https://events.shop.example/v1/batch',
      configUrl: 'https://events.shop.example/js/v1/config/pk_abc',
      attributionDays: 7,
      cookieDomain: 'shop.example',
      autoPage: false,
      historyPages: false,
      serverCookies: false,
    });
    expect(parseOptions({ key: 'pk_abc', autoPage: 'history' }, 'https://shop.example/js/v1/signalbox.js')).toMatchObject({ autoPage: true, historyPages: true });
    expect(() => parseOptions({ key: 'pk_abc', autoPage: 'spa' }, 'https://shop.example/js/v1/signalbox.js')).toThrow('data-auto-page must be true, false or history');
    expect(() => parseOptions({ key: 'pk_abc', serverCookies: 'yes' }, 'https://shop.example/js/v1/signalbox.js')).toThrow('data-server-cookies must be true or false');
  });

  it("knows when the ingest API answers on the site's own domain: same host, or inside data-cookie-domain", () => {
    expect(answersOnSiteDomain('https://shop.example/sbx/v1/batch', 'shop.example', undefined)).toBe(true);
    expect(answersOnSiteDomain('https://t.shop.example/v1/batch', 'www.shop.example', 'shop.example')).toBe(true);
    expect(answersOnSiteDomain('https://t.shop.example/v1/batch', 'www.shop.example', undefined)).toBe(false);
    expect(answersOnSiteDomain('https://ingest.signalbox.example/v1/batch', 'shop.example', 'shop.example')).toBe(false);
  });

  it('refuses a secret key, a missing key, a bad window, and an unknown host', () => {
    expect(() => parseOptions({ key: 'dk_secret' }, 'https://ingest.example/js/v1/signalbox.js')).toThrow(/^data-key holds a secret server key \(dk_\)/);
    expect(() => parseOptions({}, 'https://ingest.example/js/v1/signalbox.js')).toThrow(/^data-key must be a browser key/);
    expect(() => parseOptions({ key: 'pk_abc', attributionDays: '120' }, 'https://ingest.example/js/v1/signalbox.js')).toThrow(
      'data-attribution-days must be a whole number of days from 1 to 90',
    );
    expect(() => parseOptions({ key: 'pk_abc' }, '')).toThrow('data-host is required when the script is not loaded from Signalbox');
  });
});
