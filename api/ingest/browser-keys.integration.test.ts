import type { FastifyInstance, InjectOptions } from 'fastify';
import { DEFAULT_TIKTOK_PIXEL_URL } from '../../config/env';
import type { Workspace } from '../../db/repositories/workspaces';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../test/helpers/test-app';

const SHOP = 'https://shop.example';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let shop: Workspace;
let browserKey: string;
let secretKey: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  shop = await subject.repos.workspaces.create('Plant shop');
  await app.inject({ method: 'PATCH', url: `/admin/workspaces/${shop.id}/settings`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { allowedOrigins: [SHOP] } });
  browserKey = (await subject.repos.apiKeys.create(shop.id, 'site', 'browser')).key;
  secretKey = (await subject.repos.apiKeys.create(shop.id, 'backend')).key;
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const page = (messageId: string) => ({ type: 'page', messageId, anonymousId: 'visitor-1', context: { page: { url: `${SHOP}/ferns` } } });

/** A POST as `sendBeacon` and `fetch` send it from a page: text/plain JSON, an Origin, no Authorization. `null`: no Origin, as from a server. */
function fromPage(url: string, body: unknown, origin: string | null = SHOP, headers: InjectOptions['headers'] = {}) {
  return app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'text/plain;charset=UTF-8', ...(origin && { origin }), ...headers } });
}

async function stored(messageId: string): Promise<boolean> {
  return (await testDb.db('events').where({ workspace_id: shop.id, message_id: messageId }).first()) !== undefined;
}

describe('browser keys (pk_)', () => {
  it('are accepted from an allowed origin with writeKey in the body, and the page may read the answer', async () => {
    const response = await fromPage('/v1/batch', { batch: [page('m-beacon')], writeKey: browserKey });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(SHOP);
    expect(response.headers.vary).toBe('Origin');
    expect(await stored('m-beacon')).toBe(true);
  });

  it("take the key from ?writeKey= too, and serve Segment analytics.js's /v1/t, /v1/p and /v1/i single-message paths", async () => {
    expect((await fromPage(`/v1/batch?writeKey=${browserKey}`, { batch: [page('m-query')] })).statusCode).toBe(200);
    const track = await fromPage('/v1/t', { type: 'track', event: 'Viewed', messageId: 'm-ajs-track', anonymousId: 'visitor-1', writeKey: browserKey, sentAt: new Date().toISOString() });
    expect(track.statusCode).toBe(200);
    expect((await fromPage('/v1/p', { ...page('m-ajs-page'), writeKey: browserKey })).statusCode).toBe(200);
    expect((await fromPage('/v1/i', { type: 'identify', messageId: 'm-ajs-identify', userId: 'u-1', anonymousId: 'visitor-1', writeKey: browserKey })).statusCode).toBe(200);
    for (const id of ['m-query', 'm-ajs-track', 'm-ajs-page', 'm-ajs-identify']) expect(await stored(id)).toBe(true);
    const row = await testDb.db('events').where({ workspace_id: shop.id, message_id: 'm-ajs-track' }).first();
    expect(row?.message).not.toHaveProperty('writeKey');
  });

  it('are refused from an origin the workspace does not allow, and without any Origin, storing nothing', async () => {
    const elsewhere = await fromPage('/v1/batch', { batch: [page('m-evil')], writeKey: browserKey }, 'https://evil.example');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toEqual({
      error: 'forbidden',
      message: `Origin https://evil.example is not one of this workspace's allowedOrigins: add it in the workspace settings (signalbox settings set ${shop.id} --allowed-origins https://evil.example)`,
    });
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    // Same host, other scheme or port: origins match exactly.
    for (const near of ['http://shop.example', 'https://shop.example:8443', 'https://www.shop.example']) {
      expect((await fromPage('/v1/batch', { batch: [page('m-near')], writeKey: browserKey }, near)).statusCode).toBe(403);
    }
    const server = await fromPage('/v1/batch', { batch: [page('m-no-origin')] }, null, { authorization: `Bearer ${browserKey}` });
    expect(server.statusCode).toBe(403);
    expect(server.json().message).toMatch(/^browser API keys \(pk_\) are accepted only from web pages, and this request has no Origin header/);
    for (const id of ['m-evil', 'm-near', 'm-no-origin']) expect(await stored(id)).toBe(false);
  });

  it('cannot read anything: the settings API refuses them and the ingest API has nothing to read', async () => {
    for (const url of [`/admin/workspaces/${shop.id}`, `/admin/workspaces/${shop.id}/conversions`, `/admin/workspaces/${shop.id}/api-keys`]) {
      const read = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${browserKey}`, origin: SHOP } });
      expect(read.statusCode).toBe(401);
      expect(read.json()).toEqual({ error: 'unauthorized', message: 'API keys can only send events: the settings API needs the admin token' });
    }
    const get = await app.inject({ method: 'GET', url: `/v1/batch?writeKey=${browserKey}`, headers: { origin: SHOP } });
    expect(get.statusCode).toBe(404);
  });

  it('stop working once revoked', async () => {
    const { id, key } = await subject.repos.apiKeys.create(shop.id, 'old site', 'browser');
    expect((await fromPage('/v1/batch', { batch: [page('m-before')], writeKey: key })).statusCode).toBe(200);
    await app.inject({ method: 'DELETE', url: `/admin/workspaces/${shop.id}/api-keys/${id}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect((await fromPage('/v1/batch', { batch: [page('m-after')], writeKey: key })).statusCode).toBe(401);
  });
});

describe('secret keys (dk_)', () => {
  it('are refused on a request from a browser origin, however they are sent', async () => {
    const viaHeader = await fromPage('/v1/batch', { batch: [page('m-leak-1')] }, SHOP, { authorization: `Bearer ${secretKey}` });
    expect(viaHeader.statusCode).toBe(403);
    expect(viaHeader.json().message).toBe(
      `secret API keys (dk_) must not be used from a browser, and this request carries Origin ${SHOP}: use a browser key (pk_) in web pages, and revoke this key if it was published`,
    );
    expect(viaHeader.headers['access-control-allow-origin']).toBeUndefined();
    expect((await fromPage('/v1/batch', { batch: [page('m-leak-2')], writeKey: secretKey })).statusCode).toBe(403);
    expect(await stored('m-leak-1')).toBe(false);
  });

  it('are refused in the URL, and work from servers in the Authorization header or the body', async () => {
    const inUrl = await fromPage(`/v1/batch?writeKey=${secretKey}`, { batch: [page('m-url')] }, null);
    expect(inUrl.statusCode).toBe(403);
    expect(inUrl.json().message).toBe('secret API keys (dk_) must not be sent in the URL, where logs keep them: send Authorization: Bearer <key>');
    expect((await fromPage('/v1/batch', { batch: [page('m-server-body')], writeKey: secretKey }, null)).statusCode).toBe(200);
    expect((await fromPage('/v1/b', { batch: [page('m-server-header')] }, null, { authorization: `Bearer ${secretKey}` })).statusCode).toBe(200);
    expect(await stored('m-server-header')).toBe(true);
  });
});

describe('app keys (ak_)', () => {
  const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  const track = (messageId: string) => ({ batch: [{ type: 'track', event: 'purchase', messageId, userId: 'app-user', properties: { order_id: messageId } }] });

  beforeAll(async () => {
    await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  });

  it("are accepted from apps (no Origin, Basic auth as Segment's mobile libraries send it), and their events are app events", async () => {
    const appKey = (await subject.repos.apiKeys.create(shop.id, 'ios app', 'app')).key;
    expect(appKey).toMatch(/^ak_/);
    const response = await app.inject({ method: 'POST', url: '/v1/b', payload: track('m-app-1'), headers: { authorization: basic(appKey) } });
    expect(response.statusCode).toBe(200);
    expect(await testDb.db('conversions').where({ workspace_id: shop.id, message_id: 'm-app-1' }).first()).toMatchObject({ event_source: 'app' });
  });

  it('are refused from a web page, storing nothing', async () => {
    const appKey = (await subject.repos.apiKeys.create(shop.id, 'android app', 'app')).key;
    const response = await fromPage('/v1/batch', { ...track('m-app-2'), writeKey: appKey });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/app API keys \(ak_\) are for mobile apps/);
    expect(await stored('m-app-2')).toBe(false);
  });
});

describe("the device's address", () => {
  const contextOf = async (messageId: string) =>
    ((await testDb.db('events').where({ workspace_id: shop.id, message_id: messageId }).first())?.message as { context?: Record<string, unknown> }).context;

  it('fills context.ip from the sender for browser and app keys, and keeps an ip the message carries', async () => {
    const appKey = (await subject.repos.apiKeys.create(shop.id, 'ios app', 'app')).key;
    await app.inject({ method: 'POST', url: '/v1/batch', remoteAddress: '198.51.100.7', payload: JSON.stringify({ batch: [page('m-ip-page')], writeKey: browserKey }), headers: { 'content-type': 'text/plain', origin: SHOP } });
    await app.inject({ method: 'POST', url: '/v1/batch', remoteAddress: '198.51.100.8', payload: { batch: [page('m-ip-app')] }, headers: { authorization: `Bearer ${appKey}` } });
    const own = { ...page('m-ip-own'), context: { ip: '203.0.113.5' } };
    await app.inject({ method: 'POST', url: '/v1/batch', remoteAddress: '198.51.100.7', payload: JSON.stringify({ batch: [own], writeKey: browserKey }), headers: { 'content-type': 'text/plain', origin: SHOP } });
    expect(await contextOf('m-ip-page')).toMatchObject({ ip: '198.51.100.7', page: { url: `${SHOP}/ferns` } });
    expect((await contextOf('m-ip-app'))?.ip).toBe('198.51.100.8');
    expect((await contextOf('m-ip-own'))?.ip).toBe('203.0.113.5');
  });

  it("leaves it out for secret keys: a backend's address is not the user's", async () => {
    const response = await app.inject({ method: 'POST', url: '/v1/batch', remoteAddress: '198.51.100.9', payload: { batch: [page('m-ip-server')] }, headers: { authorization: `Bearer ${secretKey}` } });
    expect(response.statusCode).toBe(200);
    expect(await contextOf('m-ip-server')).not.toHaveProperty('ip');
  });

  it('takes the address from X-Forwarded-For only from a trusted proxy', async () => {
    const behindProxy = buildTestApp(testDb.db, { server: { trustProxy: ['10.0.0.0/8'] } });
    const send = (messageId: string, remoteAddress: string) =>
      behindProxy.app.inject({ method: 'POST', url: '/v1/batch', remoteAddress, payload: JSON.stringify({ batch: [page(messageId)], writeKey: browserKey }), headers: { 'content-type': 'text/plain', origin: SHOP, 'x-forwarded-for': '192.0.2.44' } });
    try {
      expect((await send('m-ip-proxied', '10.1.2.3')).statusCode).toBe(200);
      expect((await send('m-ip-spoofed', '198.51.100.10')).statusCode).toBe(200);
    } finally {
      await behindProxy.app.close();
    }
    expect((await contextOf('m-ip-proxied'))?.ip).toBe('192.0.2.44');
    expect((await contextOf('m-ip-spoofed'))?.ip).toBe('198.51.100.10');
  });
});

describe('CORS preflight', () => {
  const preflight = (origin: string) =>
    app.inject({
      method: 'OPTIONS',
      url: '/v1/batch',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,anonymousid' },
    });

  it('is answered for an allowed origin, with the headers the library asked for', async () => {
    const response = await preflight(SHOP);
    expect(response.statusCode).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': SHOP,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization,content-type,anonymousid',
      'access-control-max-age': '7200',
    });
  });

  it('is refused for any other origin', async () => {
    const response = await preflight('https://evil.example');
    expect(response.statusCode).toBe(403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.json().message).toBe('Origin https://evil.example is not in the allowedOrigins of any workspace: add it in the workspace settings');
  });
});

describe("the tracking script's same-site mode", () => {
  it('answers a batch that asks for it with server-set first-party cookies, readable with credentials', async () => {
    const click = { id: 'E.C.P.same-site', at: Date.now() - 86_400_000 };
    const response = await fromPage('/v1/batch', { batch: [page('m-cookies')], writeKey: browserKey, setCookies: { anonymousId: 'visitor-1', click } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    const cookies = response.cookies.map(({ name, value, maxAge, path, sameSite, secure }) => ({ name, value, maxAge, path, sameSite, secure }));
    expect(cookies).toEqual([
      { name: 'sbx_aid', value: 'visitor-1', maxAge: 34_560_000, path: '/', sameSite: 'Lax', secure: true },
      { name: 'sbx_ttclid', value: JSON.stringify(click), maxAge: expect.any(Number), path: '/', sameSite: 'Lax', secure: true },
    ]);
    expect(cookies[1]?.maxAge).toBeGreaterThan(29 * 86_400 - 60);
    expect(cookies[1]?.maxAge).toBeLessThanOrEqual(29 * 86_400);
    expect(await stored('m-cookies')).toBe(true);
  });

  it('sets no cookie for a batch that does not ask, nor for a secret key', async () => {
    expect((await fromPage('/v1/batch', { batch: [page('m-no-cookies')], writeKey: browserKey })).headers['set-cookie']).toBeUndefined();
    const server = await app.inject({
      method: 'POST',
      url: '/v1/batch',
      headers: { authorization: `Bearer ${secretKey}` },
      payload: { batch: [page('m-server-cookies')], setCookies: { anonymousId: 'visitor-1' } },
    });
    expect(server.statusCode).toBe(200);
    expect(server.headers['set-cookie']).toBeUndefined();
  });
});

describe('the tracking script settings (GET /js/v1/config/:key)', () => {
  it("answer a browser key's consent requirement and attribution window, cacheable and readable from any page", async () => {
    const first = await app.inject({ method: 'GET', url: `/js/v1/config/${browserKey}` });
    expect(first.statusCode).toBe(200);
    const pixelOff = { consentRequired: false, attributionDays: 30, pixel: { mode: 'off', code: null, libraryUrl: DEFAULT_TIKTOK_PIXEL_URL, limitedDataUse: false }, rules: [] };
    expect(first.json()).toEqual(pixelOff);
    expect(first.headers).toMatchObject({ 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });

    await app.inject({ method: 'PATCH', url: `/admin/workspaces/${shop.id}/settings`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { consentRequired: true, attributionWindowDays: 7 } });
    expect((await app.inject({ method: 'GET', url: `/js/v1/config/${browserKey}` })).json()).toEqual({ ...pixelOff, consentRequired: true, attributionDays: 7 });
    await app.inject({ method: 'PATCH', url: `/admin/workspaces/${shop.id}/settings`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { consentRequired: false, attributionWindowDays: 30 } });
  });

  it("tell the tag how to drive TikTok's pixel: the mode, the workspace's pixel code, the library, Limited Data Use, and the rules the pixel may see", async () => {
    const pixelShop = await subject.repos.workspaces.create('Pixel shop');
    const key = (await subject.repos.apiKeys.create(pixelShop.id, 'site', 'browser')).key;
    const asOperator = (method: 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url: `/admin/workspaces/${pixelShop.id}${url}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload && { payload }) });
    const config = async () => (await app.inject({ method: 'GET', url: `/js/v1/config/${key}` })).json();
    await subject.repos.tiktokConnections.put(pixelShop.id, { accessToken: 'test-token', advertiserId: null, pixelCode: 'C9ABCDEFGHIJKLMNOPQR' });
    expect((await asOperator('PUT', '/conversion-rules/purchase', { alsoSendAs: ['PlaceAnOrder'], value: { source: 'order_total', currency: 'EUR' } })).statusCode).toBe(200);
    expect((await asOperator('PUT', '/conversion-rules/lead', { value: { source: 'fixed', amount: 12.5, currency: 'USD' } })).statusCode).toBe(200);
    expect((await asOperator('PUT', '/conversion-rules/subscription_renewed', { serverOnly: true })).statusCode).toBe(200);

    const off = await config();
    expect(off.pixel).toEqual({ mode: 'off', code: 'C9ABCDEFGHIJKLMNOPQR', libraryUrl: DEFAULT_TIKTOK_PIXEL_URL, limitedDataUse: false });
    expect(off.rules).toEqual([]);

    await asOperator('PATCH', '/settings', { browserPixel: 'load', limitedDataUse: true });
    expect(await config()).toEqual({
      consentRequired: false,
      attributionDays: 30,
      pixel: { mode: 'load', code: 'C9ABCDEFGHIJKLMNOPQR', libraryUrl: DEFAULT_TIKTOK_PIXEL_URL, limitedDataUse: true },
      rules: [
        { sourceEvent: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: [], valueSource: 'fixed', fixedValue: 12.5, currency: 'USD' },
        { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder'], valueSource: 'order_total', fixedValue: null, currency: 'EUR' },
      ],
    });

    // A rule's change shows on the next request: the rules API clears the cache that spares each page view a query.
    await asOperator('PUT', '/conversion-rules/lead', { value: { source: 'fixed', amount: 12.5, currency: 'USD' }, serverOnly: true });
    await asOperator('DELETE', '/conversion-rules/purchase');
    await asOperator('PUT', '/conversion-rules/subscription_renewed', { serverOnly: false });
    const renewal = { sourceEvent: 'subscription_renewed', tiktokEvent: 'subscription_renewed', alsoSendAs: [], valueSource: 'none', fixedValue: null, currency: null };
    expect((await config()).rules).toEqual([renewal]);
    await asOperator('PATCH', '/settings', { browserPixel: 'page', limitedDataUse: false });
    expect(await config()).toMatchObject({ pixel: { mode: 'page', code: 'C9ABCDEFGHIJKLMNOPQR', limitedDataUse: false }, rules: [renewal] });
  });

  it("give the pixel library TIKTOK_PIXEL_URL names (the dev stack's is the fake's stand-in)", async () => {
    const other = buildTestApp(testDb.db, { tiktokPixelUrl: 'http://127.0.0.1:9099/i18n/pixel/events.js' });
    try {
      const response = await other.app.inject({ method: 'GET', url: `/js/v1/config/${browserKey}` });
      expect(response.json().pixel.libraryUrl).toBe('http://127.0.0.1:9099/i18n/pixel/events.js');
    } finally {
      await other.app.close();
    }
  });

  it('know nothing of a secret, unknown or revoked key', async () => {
    for (const key of [secretKey, 'pk_unknown']) {
      const response = await app.inject({ method: 'GET', url: `/js/v1/config/${key}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found', message: 'key: not an active browser key (pk_...) of any workspace' });
    }
  });
});
