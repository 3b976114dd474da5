import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ALL_ROUTES } from '../contract';
import { COMMITTED_OPENAPI } from '../devstack/write-openapi';
import { trackingScriptFrom } from './ingest/tracking-script';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { declared } from '../test/helpers/declared-answer';
import { adminCall, asPerson, createWorkspace, personIn } from '../test/helpers/console-client';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../test/helpers/test-app';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
const registered: { method: string; url: string }[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  // With a tracking script, so that its route is registered too.
  subject = buildTestApp(testDb.db, { trackingScript: trackingScriptFrom(Buffer.from('/* signalbox */')) });
  app = subject.app;
  app.addHook('onRoute', (options) => {
    for (const method of [options.method].flat()) registered.push({ method, url: options.url });
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('the OpenAPI document', () => {
  it('served at /openapi.json is the committed docs/openapi.json (npm run openapi writes it)', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(JSON.parse(readFileSync(COMMITTED_OPENAPI, 'utf8')));
  });

  it('describes every route the app registers, and no route it does not', () => {
    // Fastify adds a HEAD route beside each GET by itself.
    const routes = registered.filter((route) => route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`);
    const contracts = ALL_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(routes.length).toBeGreaterThan(100);
    expect([...routes].sort()).toEqual([...contracts].sort());
  });

  it('is shown at /docs with the reference page\'s own scripts and styles, from this server', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(assets).toEqual(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/reference.js']);
    for (const asset of assets) {
      const response = await app.inject({ method: 'GET', url: asset });
      expect(response.statusCode).toBe(200);
      expect(response.body.length).toBeGreaterThan(50);
    }
    expect((await app.inject({ method: 'GET', url: '/docs/package.json' })).json()).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^file /) });
  });
});

describe('real answers match the answer schemas the document declares', () => {
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  it('a settings API workspace, created, changed and listed, its API keys and its people', async () => {
    const created = await app.inject({ method: 'POST', url: '/admin/workspaces', headers: admin, payload: { name: 'Settings shop' } });
    expect(created.statusCode).toBe(201);
    const workspace = declared('POST', '/admin/workspaces', 201).parse(created.json()) as { id: string };
    const changed = await app.inject({ method: 'PATCH', url: `/admin/workspaces/${workspace.id}/settings`, headers: admin, payload: { allowedOrigins: ['https://shop.example'], exchangeRates: { EUR: '1.08' } } });
    expect(declared('PATCH', '/admin/workspaces/:workspaceId/settings', 200).parse(changed.json())).toMatchObject({ allowedOrigins: ['https://shop.example'] });
    const listed = await app.inject({ method: 'GET', url: '/admin/workspaces', headers: admin });
    declared('GET', '/admin/workspaces', 200).parse(listed.json());
    const key = await app.inject({ method: 'POST', url: `/admin/workspaces/${workspace.id}/api-keys`, headers: admin, payload: { name: 'site', kind: 'browser' } });
    expect(declared('POST', '/admin/workspaces/:workspaceId/api-keys', 201).parse(key.json())).toMatchObject({ kind: 'browser', key: expect.stringMatching(/^pk_/) });
    const keys = await app.inject({ method: 'GET', url: `/admin/workspaces/${workspace.id}/api-keys`, headers: admin });
    declared('GET', '/admin/workspaces/:workspaceId/api-keys', 200).parse(keys.json());
    const members = `/admin/workspaces/${workspace.id}/members`;
    const added = await app.inject({ method: 'POST', url: members, headers: admin, payload: { email: 'jo@settings-shop.example', role: 'owner', password: 'correct horse battery staple' } });
    expect(declared('POST', '/admin/workspaces/:workspaceId/members', 201).parse(added.json())).toMatchObject({ user: { email: 'jo@settings-shop.example' }, role: 'owner', invitationUrl: null });
    const invited = await app.inject({ method: 'POST', url: members, headers: admin, payload: { email: 'kim@settings-shop.example', role: 'viewer' } });
    expect(declared('POST', '/admin/workspaces/:workspaceId/members', 201).parse(invited.json())).toMatchObject({ user: null, invitation: { email: 'kim@settings-shop.example' }, invitationUrl: expect.any(String) });
    expect(declared('GET', '/admin/workspaces/:workspaceId/members', 200).parse((await app.inject({ method: 'GET', url: members, headers: admin })).json())).toMatchObject({ members: [{ email: 'jo@settings-shop.example', role: 'owner' }] });
    const missing = await app.inject({ method: 'GET', url: '/admin/workspaces/ws_missing', headers: admin });
    expect(missing.statusCode).toBe(404);
    declared('GET', '/admin/workspaces/:workspaceId', 404).parse(missing.json());
  });

  it('a conversion explained and sent again, the events listed, the rules they suggest, the match keys and the ad URL parameters', async () => {
    const workspaceId = await createWorkspace(app, 'Explained shop');
    const scoped = (rest: string) => ({ url: `/admin/workspaces/${workspaceId}${rest}`, route: `/admin/workspaces/:workspaceId${rest}` });
    const answer = async (method: 'GET' | 'POST', { url, route }: { url: string; route: string }, payload?: object) => {
      const response = await adminCall(app, method, url, payload);
      expect(response.statusCode).toBe(200);
      return declared(method, route, 200).parse(response.json()) as Record<string, unknown>;
    };
    expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/Order%20Completed`, {})).statusCode).toBe(200);
    const { key } = await subject.repos.apiKeys.create(workspaceId, 'backend');
    const batch = [
      { type: 'track', event: 'Order Completed', userId: 'u-9', messageId: 'explained-1', properties: { total: 12, currency: 'EUR' } },
      { type: 'track', event: 'Product Added', anonymousId: 'anon-9', messageId: 'explained-2' },
    ];
    expect((await app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${key}` }, payload: { batch } })).statusCode).toBe(200);

    const events = (await answer('GET', scoped('/events'))) as { events: { eventName: string }[] };
    expect(events.events.map((event) => event.eventName)).toEqual(['Product Added', 'Order Completed']);
    expect(await answer('GET', scoped('/conversion-rules/suggestions'))).toMatchObject({ suggestions: [{ event: 'Product Added', count: 1, tiktokEvent: 'AddToCart', value: { source: 'order_total' } }] });
    const [{ id }] = (await subject.repos.conversions.list(workspaceId, { limit: 1 })) as [{ id: string }, ...unknown[]];
    const detail = await answer('GET', { url: `/admin/workspaces/${workspaceId}/conversions/${id}`, route: '/admin/workspaces/:workspaceId/conversions/:conversionId' });
    expect(detail).toMatchObject({ id, workspaceId, status: 'pending', sourceEvent: 'Order Completed', deliveryRequest: null, repeatedBy: [], messageEvents: [{ id }] });
    expect(await answer('POST', scoped('/conversions/retry'), { conversionIds: [id] })).toEqual({ requeued: 0, conversionIds: [] });
    expect(await answer('GET', scoped('/match-keys'))).toMatchObject({ workspaceId, days: 30, delivered: 0 });
    expect(await answer('GET', scoped('/tiktok/ad-url-parameters'))).toMatchObject({ urlParameters: expect.stringContaining('__CAMPAIGN_ID__') });
  });

  it('the console\'s people and invitations, and its diagnostics', async () => {
    const workspaceId = await createWorkspace(app, 'People shop');
    const owner = await personIn(app, workspaceId, 'owner@people-shop.example', 'owner');
    const editor = await personIn(app, workspaceId, 'editor@people-shop.example', 'editor');
    const call = asPerson(app, owner);
    /** `rest` as the contract writes it, with its path parameters filled in from `values`. */
    const answer = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', rest: string, values: Record<string, string>, status: number, payload?: object) => {
      const filled = rest.replace(/:(\w+)/g, (_, name: string) => values[name] as string);
      const response = await call(method, `workspaces/${workspaceId}${filled}`, payload);
      expect(response.statusCode).toBe(status);
      return declared(method, `/console/api/workspaces/:workspaceId${rest.replace(/\?.*$/, '')}`, status).parse(response.json()) as Record<string, unknown>;
    };

    const invited = await answer('POST', '/invitations', {}, 201, { email: 'viewer@people-shop.example', role: 'viewer' });
    expect(invited).toMatchObject({ email: 'viewer@people-shop.example', role: 'viewer', url: expect.any(String) });
    const members = (await answer('GET', '/members', {}, 200)) as { members: { email: string }[]; invitations: { id: string }[] };
    expect(members.members.map((member) => member.email).sort()).toEqual(['editor@people-shop.example', 'owner@people-shop.example']);
    expect(members.invitations.map((invitation) => invitation.id)).toEqual([invited.id]);
    expect(await answer('PATCH', '/members/:userId', { userId: editor.userId }, 200, { role: 'viewer' })).toMatchObject({ email: 'editor@people-shop.example', role: 'viewer' });
    expect(await answer('DELETE', '/invitations/:invitationId', { invitationId: invited.id as string }, 200)).toMatchObject({ id: invited.id, revokedAt: expect.any(String) });
    expect(await answer('DELETE', '/members/:userId', { userId: editor.userId }, 200)).toEqual({ removed: true });
    expect(await answer('GET', '/diagnostics?from=2026-11-01&to=2026-11-07&timeZone=Europe%2FBerlin', {}, 200)).toMatchObject({ from: '2026-11-01', to: '2026-11-07', timeZone: 'Europe/Berlin' });
  });

  it('the console\'s webhook sources: a mapping previewed, a source made, listed and deleted', async () => {
    const workspaceId = await createWorkspace(app, 'Webhook shop');
    const call = asPerson(app, await personIn(app, workspaceId, 'owner@webhook-shop.example', 'owner'));
    const sources = `/console/api/workspaces/:workspaceId/sources`;
    const at = (rest = '') => `workspaces/${workspaceId}/sources${rest}`;
    const mapping = { event: 'type', value: 'amount', valueInCents: true, currency: '"EUR"' };

    const previewed = await call('POST', at('/preview'), { mapping, sample: '{"type":"Order Completed","amount":1250}' });
    expect(declared('POST', `${sources}/preview`, 200).parse(previewed.json())).toMatchObject({ ok: true, message: { event: 'Order Completed', properties: { total: 12.5 } } });
    const refused = await call('POST', at('/preview'), { mapping, sample: '{"type":' });
    expect(declared('POST', `${sources}/preview`, 200).parse(refused.json())).toEqual({ ok: false, problems: [expect.stringMatching(/^sample is not valid JSON/)] });

    const created = await call('POST', at(), { type: 'webhook', name: 'Payments', mapping });
    const source = declared('POST', sources, 201).parse(created.json()) as { id: string };
    expect(source).toMatchObject({ mapping, signingSecret: expect.any(String) });
    await call('POST', at(), { type: 'shopify', name: 'Fern shop' });
    const listed = declared('GET', sources, 200).parse((await call('GET', at())).json());
    expect(listed).toMatchObject({ sources: expect.arrayContaining([expect.objectContaining({ type: 'shopify', mapping: null }), expect.objectContaining({ id: source.id, mapping })]) });
    expect(declared('DELETE', `${sources}/:sourceId`, 200).parse((await call('DELETE', at(`/${source.id}`))).json())).toEqual({ deleted: true, id: source.id });
  });

  it('an ingest batch, stored and then sent again', async () => {
    const workspace = await subject.repos.workspaces.create('Answers shop');
    const { key } = await subject.repos.apiKeys.create(workspace.id, 'backend');
    const send = () =>
      app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${key}` }, payload: { batch: [{ type: 'track', event: 'Order Completed', userId: 'u-1', messageId: 'answer-1' }] } });
    const first = await send();
    expect(first.statusCode).toBe(200);
    expect(declared('POST', '/v1/batch', 200).parse(first.json())).toEqual({ success: true });
    const again = await send();
    expect(declared('POST', '/v1/batch', 200).parse(again.json())).toEqual({ success: true, duplicates: { messages: 1, conversions: 0 } });
  });

  it('a refusal of ingest, and a 400 naming the field', async () => {
    const refused = await app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: 'Bearer dk_unknown' }, payload: { batch: [] } });
    expect(refused.statusCode).toBe(401);
    expect(declared('POST', '/v1/batch', 401).parse(refused.json())).toMatchObject({ error: 'unauthorized' });
    const workspace = await subject.repos.workspaces.create('Refusals shop');
    const { key } = await subject.repos.apiKeys.create(workspace.id, 'backend');
    const invalid = await app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${key}` }, payload: { batch: [] } });
    expect(invalid.statusCode).toBe(400);
    expect(declared('POST', '/v1/batch', 400).parse(invalid.json())).toMatchObject({ error: 'invalid_request', issues: ['batch must hold at least one message'] });
  });

  it('the console\'s session, workspace, TikTok connection, overview, reasons and Conversions table, and a write without the CSRF token', async () => {
    const workspaceId = await createWorkspace(app, 'Console shop');
    const owner = await personIn(app, workspaceId, 'owner@console-shop.example', 'owner');
    const call = asPerson(app, owner);
    expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/Order%20Completed`, {})).statusCode).toBe(200);
    const { key } = await subject.repos.apiKeys.create(workspaceId, 'backend');
    const sent = await app.inject({
      method: 'POST',
      url: '/v1/batch',
      headers: { authorization: `Bearer ${key}` },
      payload: { batch: [{ type: 'track', event: 'Order Completed', userId: 'u-7', messageId: 'console-answer-1', properties: { total: 30, currency: 'USD' } }] },
    });
    expect(sent.statusCode).toBe(200);

    declared('GET', '/console/api/session', 200).parse((await call('GET', 'session')).json());
    const workspacePath = `workspaces/${workspaceId}`;
    expect(declared('GET', '/console/api/workspaces/:workspaceId', 200).parse((await call('GET', workspacePath)).json())).toMatchObject({ role: 'owner', tiktok: null });
    const page = declared('GET', '/console/api/workspaces/:workspaceId/conversions', 200).parse((await call('GET', `${workspacePath}/conversions`)).json()) as { conversions: { sourceEvent: string }[] };
    expect(page.conversions.map((conversion) => conversion.sourceEvent)).toEqual(['Order Completed']);
    const tiktok = () => call('GET', `${workspacePath}/tiktok`).then((answer) => declared('GET', '/console/api/workspaces/:workspaceId/tiktok', 200).parse(answer.json()));
    expect(await tiktok()).toMatchObject({ connection: null, permissions: [{ key: 'read_ad_performance', granted: null }, { granted: null }, { granted: null }] });
    await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/tiktok`, { accessToken: 'act.a-console-answer-token', pixelCode: 'CIDGJS3C77U7QBTMVDP0' });
    expect(await tiktok()).toMatchObject({ connection: { source: 'manual', pixelCode: 'CIDGJS3C77U7QBTMVDP0', nextStep: null, schedule: null } });
    const today = new Date().toISOString().slice(0, 10);
    const overview = declared('GET', '/console/api/workspaces/:workspaceId/overview', 200).parse((await call('GET', `${workspacePath}/overview?from=${today}&to=${today}`)).json());
    expect(overview).toMatchObject({ events: [{ day: today, eventName: 'Order Completed', events: 1 }], conversions: [{ status: 'pending', conversions: 1 }], matchQuality: { events: [{ estimate: null }] } });
    const reasons = declared('GET', '/console/api/workspaces/:workspaceId/reasons', 200).parse((await call('GET', `${workspacePath}/reasons`)).json()) as { reasons: unknown[] };
    expect(reasons.reasons.length).toBeGreaterThan(10);
    const unguarded = await call('PATCH', `${workspacePath}/settings`, { testMode: false }, { 'x-csrf-token': 'not-the-token' });
    expect(unguarded.statusCode).toBe(403);
    expect(declared('PATCH', '/console/api/workspaces/:workspaceId/settings', 403).parse(unguarded.json())).toMatchObject({ error: 'csrf_token_invalid' });
  });
});
