import { browserTransport } from './transport';

const respond = (status: number) => async () => new Response(null, { status });

describe('browserTransport', () => {
  it('posts the body as text/plain with keepalive and no cookies', async () => {
    const requests: [string, RequestInit | undefined][] = [];
    const transport = browserTransport('https://ingest.example/v1/batch', async (input, init) => {
      requests.push([String(input), init]);
      return new Response('{"success":true}', { status: 200 });
    }, undefined);
    expect(await transport.send('{"batch":[]}')).toBe('delivered');
    expect(requests).toEqual([['https://ingest.example/v1/batch', { method: 'POST', body: '{"batch":[]}', keepalive: true, credentials: 'omit' }]]);
  });

  it('lets the answer set cookies in the same-site mode', async () => {
    let credentials: RequestCredentials | undefined;
    const transport = browserTransport('https://shop.example/sbx/v1/batch', async (_input, init) => {
      credentials = init?.credentials;
      return new Response(null, { status: 200 });
    }, undefined, true);
    await transport.send('{}');
    expect(credentials).toBe('include');
  });

  it('retries 5xx, 408, 429 and network failures, and gives up on other 4xx', async () => {
    const outcome = (fetchImpl: typeof fetch) => browserTransport('https://ingest.example/v1/batch', fetchImpl, undefined).send('{}');
    expect(await outcome(respond(503))).toBe('retry');
    expect(await outcome(respond(429))).toBe('retry');
    expect(await outcome(respond(408))).toBe('retry');
    expect(await outcome(respond(400))).toBe('rejected');
    expect(await outcome(respond(403))).toBe('rejected');
    expect(await outcome(async () => Promise.reject(new TypeError('Failed to fetch')))).toBe('retry');
  });

  it("beacons through the browser, and reports false when there is no sendBeacon or it throws", () => {
    const beacons: [string, string][] = [];
    const sendBeacon = (url: string, body: string) => beacons.push([url, body]) > 0;
    expect(browserTransport('https://ingest.example/v1/batch', fetch, sendBeacon).beacon('{}')).toBe(true);
    expect(beacons).toEqual([['https://ingest.example/v1/batch', '{}']]);
    expect(browserTransport('https://ingest.example/v1/batch', fetch, undefined).beacon('{}')).toBe(false);
    const throwing = () => {
      throw new TypeError('Beacons are not allowed');
    };
    expect(browserTransport('https://ingest.example/v1/batch', fetch, throwing).beacon('{}')).toBe(false);
  });
});
