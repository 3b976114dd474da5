import type { FastifyInstance } from 'fastify';
import { LosslessNumber } from 'lossless-json';
import { shopifyDelivery, shopifyFixture } from '../../devstack/shopify-fake';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, TEST_ADMIN_TOKEN } from '../../test/helpers/test-app';

/**
 * Issue 43: whoever knows a webhook source's URL cannot spend its workspace's allowance. Requests the signature refuses
 * take from a bucket of their own per source; only signed deliveries take from the workspace's. Both buckets are tiny
 * and refill too slowly to matter within the test.
 */
const SHOP_KEY = 'c0ffee5eedc0ffee5eedc0ffee5eedc0ffee5eedc0ffee5eedc0ffee5eedc0ff';
const SIGNED_BURST = 3;
const REFUSED_BURST = 5;

let testDb: TestDatabase;
let app: FastifyInstance;
let path: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  ({ app } = buildTestApp(testDb.db, { rateLimit: { perSecond: 0.001, burst: SIGNED_BURST }, refusedWebhookRateLimit: { perSecond: 0.001, burst: REFUSED_BURST } }));
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const workspaceId = (await app.inject({ method: 'POST', url: '/admin/workspaces', headers: admin, payload: { name: 'Fern shop' } })).json().id as string;
  const source = await app.inject({ method: 'POST', url: `/admin/workspaces/${workspaceId}/sources`, headers: admin, payload: { type: 'shopify', name: 'Fern shop', signingSecret: SHOP_KEY } });
  path = new URL(source.json().webhookUrl as string).pathname;
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const order = shopifyFixture('orders/create');
const post = (headers: Record<string, string>, payload: string) => app.inject({ method: 'POST', url: path, headers, payload });

describe("a webhook source's rate limits", () => {
  it('answers a flood of unsigned requests 401, then 429 past their own bucket, and still takes the signed deliveries the workspace may send', async () => {
    const forged = shopifyDelivery('orders/create', order, 'not the shop key, a guess at it');
    const unsigned = { ...forged.headers };
    delete unsigned['x-shopify-hmac-sha256'];

    const flood = [];
    for (let i = 0; i < REFUSED_BURST + 10; i += 1) flood.push(await post(i % 2 === 0 ? unsigned : forged.headers, forged.body));
    expect(flood.map((answer) => answer.statusCode)).toEqual([...Array<number>(REFUSED_BURST).fill(401), ...Array<number>(10).fill(429)]);
    const limited = flood.at(-1);
    expect(limited?.json().message).toMatch(/^this source was sent more than 0\.001 requests per second that its signature refused \(bursts up to 5 more\); retry in \d+ seconds$/);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);

    // The workspace's whole allowance is left for Shopify's own deliveries, and only they take from it.
    for (let i = 0; i < SIGNED_BURST; i += 1) {
      const delivery = shopifyDelivery('orders/create', { ...order, id: new LosslessNumber(`82098291194615450${i}`) }, SHOP_KEY);
      const accepted = await post(delivery.headers, delivery.body);
      expect([accepted.statusCode, accepted.json()]).toEqual([200, { success: true }]);
    }
    const over = shopifyDelivery('orders/paid', order, SHOP_KEY);
    const refused = await post(over.headers, over.body);
    expect([refused.statusCode, refused.json().message]).toEqual([429, expect.stringMatching(/^this workspace sent more than 0\.001 requests per second \(bursts up to 3 more\)/)]);
  });
});
