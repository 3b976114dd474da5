import type { FastifyInstance } from 'fastify';
import { SEALED_COLUMNS, sealedColumnName } from './sealed-columns';
import { createSecretBox } from './secret-box';
import { asPerson, adminCall, createWorkspace, personIn } from '../test/helpers/console-client';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { columnsWithSealedValues, unregisteredSealedColumns } from '../test/helpers/sealed-values';
import { buildTestApp, TEST_SECRET_KEY } from '../test/helpers/test-app';
import { FAKE_SHOPIFY_API_KEY, FAKE_SHOPIFY_API_SECRET, startFakeShopifyAdmin, type FakeShopifyAdmin } from '../devstack/shopify-fake';

let testDb: TestDatabase;
let app: FastifyInstance;
let shopify: FakeShopifyAdmin;

beforeAll(async () => {
  testDb = await createTestDatabase();
  shopify = await startFakeShopifyAdmin();
  // hooks.slack.example resolves to a public address here (example.com's, IANA's; this machine has no DNS).
  app = buildTestApp(testDb.db, {
    alertWebhooks: { internalAddresses: 'refuse', lookup: async () => [{ address: '93.184.215.14' }] },
    shopifyApp: { apiKey: FAKE_SHOPIFY_API_KEY, secret: FAKE_SHOPIFY_API_SECRET, shopUrl: shopify.shopUrl },
  }).app;
});
afterAll(async () => {
  await app?.close();
  await shopify?.close();
  await testDb?.destroy();
});

describe('values sealed with SECRET_KEY', () => {
  it('are written, by the API that stores them, only to the columns the registry lists, and to each of them', async () => {
    const shop = await createWorkspace(app, 'Sealed shop');
    const owner = await personIn(app, shop, 'owner@sealed.example', 'owner');
    const connected = await adminCall(app, 'PUT', `/admin/workspaces/${shop}/tiktok`, { accessToken: 'act.sealed-shop-token', pixelCode: 'CSEALEDPIXEL00000001' });
    expect(connected.statusCode).toBe(200);
    const alerts = await asPerson(app, owner)('PUT', `workspaces/${shop}/alerts`, {
      onReauthorization: true,
      failedSharePercent: null,
      silenceMinutes: null,
      emailEnabled: false,
      emailRecipients: [],
      webhookUrl: 'https://hooks.slack.example/services/T0/B0/sealedpart',
    });
    expect(alerts.statusCode).toBe(200);
    const source = await adminCall(app, 'POST', `/admin/workspaces/${shop}/sources`, { type: 'shopify', name: 'Sealed store', signingSecret: 'shpss_sealedsigningsecret' });
    expect(source.statusCode).toBe(201);
    // Connect Shopify: approved in the fake Shopify, Shopify's redirect brought to the callback.
    const authorization = (await adminCall(app, 'POST', `/admin/workspaces/${shop}/shopify/oauth/authorize`, { shop: 'sealed-shop.myshopify.com' })).json() as { url: string };
    const approved = await fetch(new URL('authorize', authorization.url), { method: 'POST', body: new URLSearchParams([...new URL(authorization.url).searchParams]), redirect: 'manual' });
    const redirect = new URL(approved.headers.get('location') as string);
    expect((await app.inject({ method: 'GET', url: `${redirect.pathname}${redirect.search}`, headers: { accept: 'application/json' } })).statusCode).toBe(200);

    expect((await columnsWithSealedValues(testDb.db)).sort()).toEqual(SEALED_COLUMNS.map(sealedColumnName).sort());
    // Nothing it stored holds the secrets in the clear.
    const dump = JSON.stringify(await Promise.all(['tiktok_connections', 'alert_settings', 'webhook_sources', 'shopify_connections', 'change_log'].map((table) => testDb.db(table).select())));
    expect(dump).not.toContain('shpat_');
    expect(dump).not.toContain(FAKE_SHOPIFY_API_SECRET);
    expect(dump).not.toContain('act.sealed-shop-token');
    expect(dump).not.toContain('sealedpart');
    expect(dump).not.toContain('sealedsigningsecret');
  });

  it('are found in a column the registry does not list, as the check before each test database is dropped finds them', async () => {
    const { id } = (await testDb.db('workspaces').first('id')) as { id: string };
    const sealed = createSecretBox(TEST_SECRET_KEY).seal('alert_settings.webhook_url_ciphertext', 'a secret put where rotation does not look');
    await testDb.db('workspaces').where({ id }).update({ name: sealed });
    await testDb.db('change_log').insert({ workspace_id: id, actor: 'test', action: 'test.sealed', after: { note: `kept as ${sealed}` } });
    expect(await unregisteredSealedColumns(testDb.db)).toEqual(['change_log.after', 'workspaces.name']);

    await testDb.db('change_log').where({ action: 'test.sealed' }).delete();
    await testDb.db('workspaces').where({ id }).update({ name: 'Sealed shop' });
    expect(await unregisteredSealedColumns(testDb.db)).toEqual([]);
  });
});
