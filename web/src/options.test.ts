import { parseOptions } from './options';

describe('script tag options', () => {
  it('posts to the server the script came from, path prefix included', () => {
    expect(parseOptions({ key: 'pk_abc' }, 'https://ingest.example/js/v1/signalbox.js')).toEqual({
      writeKey: 'pk_abc',
      endpoint: 'https://ingest.example/v1/batch',
      attributionDays: 30,
      cookieDomain: undefined,
      autoPage: true,
    });
    expect(parseOptions({ key: 'pk_abc' }, 'https://shop.example/signalbox/js/v1/signalbox.js?v=2').endpoint).toBe('https://shop.example/signalbox/v1/batch');
  });

  it('takes data-host, data-attribution-days, data-cookie-domain and data-auto-page', () => {
    expect(parseOptions({ key: 'pk_abc', host: 'https://events.shop.example/', attributionDays: '7', cookieDomain: 'shop.example', autoPage: 'false' }, '')).toEqual({
      writeKey: 'pk_abc',
      endpoint: 'https://events.shop.example/v1/batch',
      attributionDays: 7,
      cookieDomain: 'shop.example',
      autoPage: false,
    });
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
