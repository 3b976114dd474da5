import type { FastifyInstance, InjectOptions } from 'fastify';
import { hashApiKey } from '../../db/repositories/api-keys';
import type { Workspace } from '../../db/repositories/workspaces';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { declared } from '../../test/helpers/declared-answer';
import { createBatchRecorder } from '../ingest/record-batch';
import { buildTestApp, publicLinkPattern, TEST_ADMIN_TOKEN, type TestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db, { workflowLink: (id) => `http://temporal.test/namespaces/default/workflows/${id}` });
  app = subject.app;
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

function admin(method: InjectOptions['method'], url: string, payload?: unknown) {
  return app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
}

async function newWorkspace(name = 'Tea house'): Promise<Workspace> {
  const response = await admin('POST', '/admin/workspaces', { name });
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('admin auth', () => {
  it('answers 401 without the admin token or with a wrong one', async () => {
    const none = await app.inject({ method: 'GET', url: '/admin/workspaces' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'unauthorized', message: 'Authorization header must be Bearer <ADMIN_TOKEN>' });
    const wrong = await app.inject({ method: 'GET', url: '/admin/workspaces', headers: { authorization: 'Bearer not-the-admin-token' } });
    expect(wrong.json()).toEqual({ error: 'unauthorized', message: 'admin token is not valid' });
  });
});

describe('workspaces', () => {
  it('creates, lists and shows workspaces with the default settings', async () => {
    const created = await newWorkspace('Bakery');
    expect(created).toMatchObject({ name: 'Bakery', attributionWindowDays: 30, testMode: false, testEventCode: null, defaultPhoneRegion: 'US', eventRetentionDays: 30, conversionRetentionDays: 90, matchWithoutClick: false, pipelinePartitions: 1 });
    expect((await admin('GET', '/admin/workspaces')).json().workspaces.map((w: Workspace) => w.id)).toContain(created.id);
    expect((await admin('GET', `/admin/workspaces/${created.id}`)).json()).toEqual(created);
  });

  it('names the missing or unknown field, and answers 404 for an unknown workspace', async () => {
    expect((await admin('POST', '/admin/workspaces', {})).json()).toEqual({ error: 'invalid_request', message: 'name is required', issues: ['name is required'] });
    expect((await admin('POST', '/admin/workspaces', { name: 'A', colour: 'red' })).json().issues).toEqual(['colour is not a known field']);
    const missing = await admin('GET', '/admin/workspaces/ws_missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'workspace ws_missing does not exist' });
  });
});

describe('members', () => {
  it('invites a person without a password by a link under PUBLIC_URL, whatever Host the request names', async () => {
    const { id } = await newWorkspace('Plant shop');
    const invited = await app.inject({
      method: 'POST',
      url: `/admin/workspaces/${id}/members`,
      payload: { email: 'new@plants.example', role: 'editor' },
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ account: 'invited', passwordSet: false, user: null, invitation: { delivery: 'operator' } });
    expect(invited.json().invitationUrl).toMatch(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}'));
  });
});

describe('settings', () => {
  it('updates the window and region, and refuses test mode without a test event code', async () => {
    const ws = await newWorkspace();
    const updated = await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { attributionWindowDays: 7, defaultPhoneRegion: 'gb', eventRetentionDays: 14 });
    expect(updated.json()).toMatchObject({ attributionWindowDays: 7, defaultPhoneRegion: 'GB', eventRetentionDays: 14 });

    const refused = await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { testMode: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('testEventCode is required while testMode is true: copy it from TikTok Events Manager > Test events');

    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { testMode: true, testEventCode: 'TEST12345' })).json()).toMatchObject({ testMode: true, testEventCode: 'TEST12345' });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { testMode: false })).json()).toMatchObject({ testMode: false, testEventCode: 'TEST12345' });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { testMode: true })).json()).toMatchObject({ testMode: true });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { testEventCode: null })).statusCode).toBe(400);
  });

  it('splits a workspace among pipeline partitions, logs the change and wakes every partition the change concerns', async () => {
    const ws = await newWorkspace();
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { pipelinePartitions: 4 })).json()).toMatchObject({ pipelinePartitions: 4 });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { pipelinePartitions: 2 })).json()).toMatchObject({ pipelinePartitions: 2 });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { pipelinePartitions: 2 })).statusCode).toBe(200);
    // 1 → 4 wakes the four, 4 → 2 the four again (two to claim what moved, two to end); setting 2 again changes nothing.
    expect(subject.starts.wokenPartitions.filter((p) => p.workspaceId === ws.id).map((p) => p.partition)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    const entries = await subject.repos.changeLog.list(ws.id, { limit: 10 });
    expect(entries.map(({ actor, action, target, before, after }) => ({ actor, action, target, before, after }))).toEqual([
      { actor: 'operator', action: 'settings.update', target: 'pipelinePartitions', before: { pipelinePartitions: 4 }, after: { pipelinePartitions: 2 } },
      { actor: 'operator', action: 'settings.update', target: 'pipelinePartitions', before: { pipelinePartitions: 1 }, after: { pipelinePartitions: 4 } },
    ]);
  });

  it('names each invalid setting', async () => {
    const ws = await newWorkspace();
    const response = await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, {
      attributionWindowDays: 91,
      defaultPhoneRegion: 'XX',
      testMode: 'yes',
      eventRetentionDays: 0,
      conversionRetentionDays: 27,
      matchWithoutClick: 'on',
      pipelinePartitions: 17,
    });
    expect(response.json().issues).toEqual([
      'attributionWindowDays must be a whole number of days from 1 to 90',
      'testMode must be true or false',
      'defaultPhoneRegion must be an ISO 3166 alpha-2 country code with a phone numbering plan, e.g. US or GB',
      'eventRetentionDays must be a whole number of days from 1 to 3650',
      "conversionRetentionDays must be a whole number of days from 28 (TikTok's attribution window) to 3650",
      'matchWithoutClick must be true or false',
      'pipelinePartitions must be a whole number of workflows from 1 to 16',
    ]);
    for (const partitions of [0, 2.5, '4']) {
      expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { pipelinePartitions: partitions })).json().issues).toEqual(['pipelinePartitions must be a whole number of workflows from 1 to 16']);
    }
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, {})).json().message).toBe(
      'body must set at least one of attributionWindowDays, testMode, testEventCode, defaultPhoneRegion, allowedOrigins, consentRequired, exchangeRates, eventRetentionDays, conversionRetentionDays, matchWithoutClick, pipelinePartitions, browserPixel, limitedDataUse',
    );
  });

  it('sets what the tag does with TikTok\'s pixel and Limited Data Use, each change in the change log, and names a wrong value', async () => {
    const ws = await newWorkspace();
    expect(ws).toMatchObject({ browserPixel: 'off', limitedDataUse: false });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { browserPixel: 'page', limitedDataUse: true })).json()).toMatchObject({ browserPixel: 'page', limitedDataUse: true });
    expect((await admin('GET', `/admin/workspaces/${ws.id}`)).json()).toMatchObject({ browserPixel: 'page', limitedDataUse: true });
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { browserPixel: 'load' })).json()).toMatchObject({ browserPixel: 'load', limitedDataUse: true });

    const refused = await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { browserPixel: 'on', limitedDataUse: 'yes' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      'browserPixel must be "off" (the tag leaves TikTok\'s pixel alone), "load" (the tag loads the pixel) or "page" (the tag uses the pixel already on the page)',
      'limitedDataUse must be true or false',
    ]);
    expect((await admin('GET', `/admin/workspaces/${ws.id}`)).json()).toMatchObject({ browserPixel: 'load', limitedDataUse: true });
    const entries = await subject.repos.changeLog.list(ws.id, { limit: 10 });
    expect(entries.map(({ action, target, before, after }) => ({ action, target, before, after }))).toEqual([
      { action: 'settings.update', target: 'browserPixel', before: { browserPixel: 'page' }, after: { browserPixel: 'load' } },
      { action: 'settings.update', target: 'browserPixel,limitedDataUse', before: { browserPixel: 'off', limitedDataUse: false }, after: { browserPixel: 'page', limitedDataUse: true } },
    ]);
  });

  it('turns matching without a click on and off, each change in the change log', async () => {
    const ws = await newWorkspace();
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { matchWithoutClick: true })).json()).toMatchObject({ matchWithoutClick: true });
    expect((await admin('GET', `/admin/workspaces/${ws.id}`)).json()).toMatchObject({ matchWithoutClick: true });
    await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { matchWithoutClick: false });
    const entries = await subject.repos.changeLog.list(ws.id, { limit: 10 });
    expect(entries.map(({ action, target, before, after }) => ({ action, target, before, after }))).toEqual([
      { action: 'settings.update', target: 'matchWithoutClick', before: { matchWithoutClick: true }, after: { matchWithoutClick: false } },
      { action: 'settings.update', target: 'matchWithoutClick', before: { matchWithoutClick: false }, after: { matchWithoutClick: true } },
    ]);
  });

  it('stores allowed origins as browsers send them, and names each one that is not an origin', async () => {
    const ws = await newWorkspace();
    expect(ws.allowedOrigins).toEqual([]);
    const set = await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { allowedOrigins: ['https://Shop.Example/', 'https://shop.example:443', 'http://localhost:3000'] });
    expect(set.json().allowedOrigins).toEqual(['https://shop.example', 'http://localhost:3000']);

    const refused = await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, {
      allowedOrigins: ['https://shop.example/checkout', 'ftp://shop.example', '*.shop.example', 'https://user@shop.example', 7],
    });
    const rule = 'must be an origin: http:// or https://, a host and an optional port, without a path (e.g. https://shop.example)';
    expect(refused.json().issues).toEqual([0, 1, 2, 3, 4].map((index) => `allowedOrigins[${index}] ${rule}`));
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { allowedOrigins: 'https://shop.example' })).json().issues).toEqual([
      'allowedOrigins must be a list of origins such as ["https://shop.example"], or [] for none',
    ]);
    expect((await admin('GET', `/admin/workspaces/${ws.id}`)).json().allowedOrigins).toEqual(['https://shop.example', 'http://localhost:3000']);
    expect((await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { allowedOrigins: [] })).json().allowedOrigins).toEqual([]);
  });
});

describe('API keys', () => {
  it('shows a new key once, stores only its hash, lists without it and revokes it', async () => {
    const ws = await newWorkspace();
    const created = await admin('POST', `/admin/workspaces/${ws.id}/api-keys`, { name: 'backend' });
    expect(created.statusCode).toBe(201);
    const { id, key, displayPrefix } = created.json();
    expect(key).toMatch(/^dk_[A-Za-z0-9_-]{32}$/);
    expect(key.startsWith(displayPrefix)).toBe(true);

    const row = await testDb.db('api_keys').where({ id }).first();
    expect(row?.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const listed = await admin('GET', `/admin/workspaces/${ws.id}/api-keys`);
    expect(listed.json().apiKeys).toEqual([expect.objectContaining({ id, name: 'backend', displayPrefix, revokedAt: null })]);
    expect(listed.body).not.toContain(key);

    const revoked = await admin('DELETE', `/admin/workspaces/${ws.id}/api-keys/${id}`);
    expect(revoked.json().revokedAt).toEqual(expect.any(String));
    expect(await subject.repos.apiKeys.findActive(key)).toBeUndefined();
    expect((await admin('DELETE', `/admin/workspaces/${ws.id}/api-keys/key_unknown`)).json()).toEqual({
      error: 'not_found',
      message: 'API key key_unknown does not exist in this workspace',
    });
  });

  it('creates browser keys (pk_), says where they work, lists each key with its kind, and revokes them alike', async () => {
    const ws = await newWorkspace();
    const secret = (await admin('POST', `/admin/workspaces/${ws.id}/api-keys`, { name: 'backend' })).json();
    expect(secret).toMatchObject({ kind: 'secret', key: expect.stringMatching(/^dk_/), notice: 'Store this key now: it is shown only once and cannot be recovered.' });

    const before = (await admin('POST', `/admin/workspaces/${ws.id}/api-keys`, { name: 'site', kind: 'browser' })).json();
    expect(before.key).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(before.notice).toMatch(/no allowedOrigins yet, so every page is refused until you set them/);
    await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { allowedOrigins: ['https://tea.example'] });
    expect((await admin('POST', `/admin/workspaces/${ws.id}/api-keys`, { name: 'shop', kind: 'browser' })).json().notice).toMatch(/Pages on https:\/\/tea\.example may use it\.$/);

    const listed = (await admin('GET', `/admin/workspaces/${ws.id}/api-keys`)).json().apiKeys;
    expect(listed.map((key: { name: string; kind: string }) => [key.name, key.kind])).toEqual([['backend', 'secret'], ['site', 'browser'], ['shop', 'browser']]);
    expect((await admin('DELETE', `/admin/workspaces/${ws.id}/api-keys/${before.id}`)).json()).toMatchObject({ kind: 'browser', revokedAt: expect.any(String) });
    expect((await admin('POST', `/admin/workspaces/${ws.id}/api-keys`, { name: 'x', kind: 'public' })).json().issues).toEqual([
      'kind must be secret (servers, dk_), browser (web pages, pk_) or app (mobile apps, ak_)',
    ]);
  });
});

describe('conversion rules', () => {
  it('fills in the standard mapping and value source, keeps custom names, and deletes', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/conversion-rules`;
    expect((await admin('PUT', `${base}/purchase`, {})).json()).toEqual({
      event: 'purchase',
      tiktokEvent: 'CompletePayment',
      alsoSendAs: [],
      value: { source: 'order_total' },
      serverOnly: false,
      destination: 'auto',
      chosen: 'purchase is a standard event: sent to TikTok as CompletePayment, valued at the amount in the event: properties.total, else value, revenue, or price × quantity.',
    });
    expect((await admin('PUT', `${base}/lead`, { value: { source: 'fixed', amount: 25, currency: 'usd' } })).json()).toEqual({
      event: 'lead',
      tiktokEvent: 'SubmitForm',
      alsoSendAs: [],
      value: { source: 'fixed', amount: 25, currency: 'USD' },
      serverOnly: false,
      destination: 'auto',
      chosen: 'lead is a standard event: sent to TikTok as SubmitForm, valued at 25 USD.',
    });
    expect((await admin('PUT', `${base}/subscription_started`)).json()).toEqual({
      event: 'subscription_started',
      tiktokEvent: 'subscription_started',
      alsoSendAs: [],
      value: { source: 'none' },
      serverOnly: false,
      destination: 'auto',
      chosen: 'subscription_started is neither a standard nor a Segment spec event: sent to TikTok as a custom event under its own name, with its properties, without a value.',
    });

    expect((await admin('GET', base)).json().rules.map((rule: { event: string }) => rule.event)).toEqual(['lead', 'purchase', 'subscription_started']);
    expect(declared('DELETE', '/admin/workspaces/:workspaceId/conversion-rules/:event', 200).parse((await admin('DELETE', `${base}/lead`)).json())).toEqual({ event: 'lead', deleted: true });
    expect((await admin('DELETE', `${base}/lead`)).statusCode).toBe(404);
    expect(await subject.repos.conversionRules.find(ws.id, 'lead')).toBeUndefined();
  });

  it("picks the TikTok event and value for Segment's spec names, and says what it chose", async () => {
    const ws = await newWorkspace();
    const put = async (event: string, body: unknown = {}) => (await admin('PUT', `/admin/workspaces/${ws.id}/conversion-rules/${encodeURIComponent(event)}`, body)).json();
    expect(await put('Order Completed')).toEqual({
      event: 'Order Completed',
      tiktokEvent: 'CompletePayment',
      alsoSendAs: [],
      value: { source: 'order_total' },
      serverOnly: false,
      destination: 'auto',
      chosen: 'Order Completed is a Segment spec event: sent to TikTok as CompletePayment, valued at the amount in the event: properties.total, else value, revenue, or price × quantity.',
    });
    expect(await put('product_added', { value: { source: 'order_total', currency: 'eur' } })).toMatchObject({
      tiktokEvent: 'AddToCart',
      chosen:
        "product_added is Segment's Product Added: sent to TikTok as AddToCart, valued at the amount in the event: properties.total, else value, revenue, or price × quantity (EUR when the event names no currency).",
    });
    const chosen = await Promise.all(['Checkout Started', 'Signed Up', 'Product Viewed', 'Products Searched'].map((event) => put(event)));
    expect(chosen.map((rule) => [rule.event, rule.tiktokEvent, rule.value.source])).toEqual([
      ['Checkout Started', 'InitiateCheckout', 'order_total'],
      ['Signed Up', 'CompleteRegistration', 'none'],
      ['Product Viewed', 'ViewContent', 'order_total'],
      ['Products Searched', 'Search', 'none'],
    ]);
    expect((await put('Order Completed', { tiktokEvent: 'PlaceAnOrder' })).chosen).toBe(
      'Order Completed is sent to TikTok as PlaceAnOrder, valued at the amount in the event: properties.total, else value, revenue, or price × quantity.',
    );
  });

  it('records each rule it writes in the change log, with the rule before and after', async () => {
    const ws = await newWorkspace();
    await admin('PUT', `/admin/workspaces/${ws.id}/conversion-rules/Order%20Completed`, {});
    await admin('PUT', `/admin/workspaces/${ws.id}/conversion-rules/Order%20Completed`, { value: { source: 'none' } });
    const entries = await subject.repos.changeLog.list(ws.id, { limit: 10 });
    expect(entries.map(({ actor, action, target, before, after }) => ({ actor, action, target, before, after }))).toEqual([
      {
        actor: 'operator',
        action: 'rule.put',
        target: 'Order Completed',
        before: { event: 'Order Completed', tiktokEvent: 'CompletePayment', alsoSendAs: [], value: { source: 'order_total' }, serverOnly: false, destination: 'auto' },
        after: { event: 'Order Completed', tiktokEvent: 'CompletePayment', alsoSendAs: [], value: { source: 'none' }, serverOnly: false, destination: 'auto' },
      },
      { actor: 'operator', action: 'rule.put', target: 'Order Completed', before: null, after: { event: 'Order Completed', tiktokEvent: 'CompletePayment', alsoSendAs: [], value: { source: 'order_total' }, serverOnly: false, destination: 'auto' } },
    ]);
  });

  it('suggests rules for the event names of the last 7 days that no rule maps, most frequent first', async () => {
    const ws = await newWorkspace();
    await subject.repos.conversionRules.put(ws.id, { sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    const recordBatch = createBatchRecorder(subject.repos);
    const track = (event: string, n: number) => ({ type: 'track' as const, messageId: `${event}-${n}`, event, anonymousId: 'a1' });
    await recordBatch(ws, [
      ...[1, 2, 3].map((n) => track('Product Viewed', n)),
      ...[1, 2].map((n) => track('Order Completed', n)),
      track('Wishlist Shared', 1),
      { type: 'page' as const, messageId: 'page-1', name: 'Home', anonymousId: 'a1' },
    ], { receivedAt: new Date() });
    await recordBatch(ws, [track('Product Added', 1)], { receivedAt: new Date() });
    await testDb.db('events').where({ workspace_id: ws.id, event_name: 'Product Added' }).update({ received_at: new Date(Date.now() - 8 * 86_400_000) });

    const answer = (await admin('GET', `/admin/workspaces/${ws.id}/conversion-rules/suggestions`)).json();
    expect(Date.now() - Date.parse(answer.since)).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(answer.suggestions).toEqual([
      { event: 'Product Viewed', count: 3, lastSeenAt: expect.any(String), tiktokEvent: 'ViewContent', mapping: 'segment', value: { source: 'order_total' } },
      { event: 'Wishlist Shared', count: 1, lastSeenAt: expect.any(String), tiktokEvent: 'Wishlist Shared', mapping: 'custom', value: { source: 'none' } },
    ]);
  });

  it('also sends a rule\'s events as other TikTok events, says so, and names what is wrong with them', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/conversion-rules`;
    expect((await admin('PUT', `${base}/Order%20Completed`, { alsoSendAs: ['PlaceAnOrder'] })).json()).toEqual({
      event: 'Order Completed',
      tiktokEvent: 'CompletePayment',
      alsoSendAs: ['PlaceAnOrder'],
      value: { source: 'order_total' },
      serverOnly: false,
      destination: 'auto',
      chosen:
        'Order Completed is a Segment spec event: sent to TikTok as CompletePayment, valued at the amount in the event: properties.total, else value, revenue, or price × quantity.' +
        ' Each is also sent as PlaceAnOrder: one conversion per TikTok event, the additional ones under their own event_id (<event_id>:PlaceAnOrder); CompletePayment keeps the plain event_id, which the browser pixel shares.',
    });
    expect((await admin('GET', base)).json().rules).toEqual([{ event: 'Order Completed', tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder'], value: { source: 'order_total' }, serverOnly: false, destination: 'auto' }]);

    const refused = async (body: unknown) => {
      const response = await admin('PUT', `${base}/Order%20Completed`, body);
      expect(response.statusCode).toBe(400);
      return response.json().issues;
    };
    expect(await refused({ alsoSendAs: ['placeanorder'] })).toEqual(['alsoSendAs names "placeanorder", which is not a TikTok standard event: did you mean PlaceAnOrder?']);
    expect(await refused({ alsoSendAs: ['OrderShipped'] })).toEqual([expect.stringMatching(/^alsoSendAs names "OrderShipped", which is not a TikTok standard event: one of AddPaymentInfo, /)]);
    expect(await refused({ alsoSendAs: ['PlaceAnOrder', 'PlaceAnOrder'] })).toEqual(['alsoSendAs names PlaceAnOrder twice']);
    expect(await refused({ alsoSendAs: ['CompletePayment'] })).toEqual(["alsoSendAs names CompletePayment, the rule's own TikTok event, which is sent already"]);
    expect(await refused({ tiktokEvent: 'Purchase', alsoSendAs: ['Purchase'] })).toEqual(["alsoSendAs names Purchase, the rule's own TikTok event, which is sent already"]);
    expect(await refused({ alsoSendAs: ['PlaceAnOrder', 'Purchase', 'AddPaymentInfo', 'Subscribe'] })).toEqual(['alsoSendAs must name at most 3 TikTok events, not 4']);
    expect(await refused({ alsoSendAs: 'PlaceAnOrder' })).toEqual(['alsoSendAs must be a list of TikTok event names, e.g. ["PlaceAnOrder"]']);
    expect(await refused({ alsoSendAs: [7] })).toEqual(['alsoSendAs[0] must be a TikTok event name']);
    expect((await subject.repos.conversionRules.find(ws.id, 'Order Completed'))?.alsoSendAs).toEqual(['PlaceAnOrder']);

    // PUT replaces the whole rule: without alsoSendAs it sends its own TikTok event only.
    expect((await admin('PUT', `${base}/Order%20Completed`, {})).json().alsoSendAs).toEqual([]);
  });

  it('keeps a server-only rule from the browser pixel, says so, reads it back, and names a value that is not true or false', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/conversion-rules`;
    const saved = declared('PUT', '/admin/workspaces/:workspaceId/conversion-rules/:event', 200).parse((await admin('PUT', `${base}/purchase`, { serverOnly: true })).json());
    expect(saved).toMatchObject({ event: 'purchase', tiktokEvent: 'CompletePayment', serverOnly: true });
    expect((saved as { chosen: string }).chosen).toMatch(/ Sent by the server only: the tracking tag does not report these events to TikTok's browser pixel\.$/);
    expect(declared('GET', '/admin/workspaces/:workspaceId/conversion-rules', 200).parse((await admin('GET', base)).json())).toEqual({
      rules: [{ event: 'purchase', tiktokEvent: 'CompletePayment', alsoSendAs: [], value: { source: 'order_total' }, serverOnly: true, destination: 'auto' }],
    });
    expect((await subject.repos.conversionRules.find(ws.id, 'purchase'))?.serverOnly).toBe(true);

    const refused = await admin('PUT', `${base}/purchase`, { serverOnly: 'yes' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual(['serverOnly must be true or false']);
    expect((await subject.repos.conversionRules.find(ws.id, 'purchase'))?.serverOnly).toBe(true);

    // PUT replaces the whole rule: without serverOnly the pixel may report its events again.
    const replaced = (await admin('PUT', `${base}/purchase`, {})).json();
    expect(replaced.serverOnly).toBe(false);
    expect(replaced.chosen).not.toContain('server only');
    expect((await subject.repos.conversionRules.find(ws.id, 'purchase'))?.serverOnly).toBe(false);
  });

  it('sends to the source a rule chooses, says so, and names the field its destination cannot take', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/conversion-rules`;
    const offline = (await admin('PUT', `${base}/Store%20Sale`, { tiktokEvent: 'CompletePayment', destination: 'offline' })).json();
    expect(offline).toMatchObject({ event: 'Store Sale', destination: 'offline', chosen: expect.stringContaining(' Always sent to the Offline Event Set (offline)') });
    expect((await admin('PUT', `${base}/LeadQualified`, { destination: 'crm' })).json()).toMatchObject({ tiktokEvent: 'LeadQualified', destination: 'crm' });
    expect((await subject.repos.conversionRules.find(ws.id, 'LeadQualified'))?.destination).toBe('crm');

    const refused = async (event: string, body: unknown) => {
      const response = await admin('PUT', `${base}/${event}`, body);
      expect(response.statusCode).toBe(400);
      return response.json().issues;
    };
    expect(await refused('Store%20Sale', { tiktokEvent: 'StoreSale', destination: 'offline' })).toEqual([
      expect.stringMatching(/^tiktokEvent names "StoreSale", which is not a TikTok standard event: one of .*; a rule sending to the Offline Event Set takes standard events only$/),
    ]);
    expect(await refused('LeadQualified', { tiktokEvent: 'Lead', alsoSendAs: ['SubmitForm'], destination: 'crm' })).toEqual([
      'tiktokEvent names Lead, a TikTok standard event, but a rule sending to the CRM Event Set takes custom events only: name the lead\'s stage, e.g. "Lead Qualified"',
      'alsoSendAs must be empty for a rule sending to the CRM Event Set: its events are TikTok standard events, which that set does not take',
    ]);
    expect(await refused('LeadQualified', { destination: 'email' })).toEqual(['destination must be one of auto, web, app, offline, crm']);
    expect((await subject.repos.conversionRules.find(ws.id, 'LeadQualified'))?.destination).toBe('crm');
  });

  it('names what is wrong with a value', async () => {
    const ws = await newWorkspace();
    const put = (value: unknown) => admin('PUT', `/admin/workspaces/${ws.id}/conversion-rules/lead`, { value });
    expect((await put({ source: 'fixed', amount: 25 })).json().issues).toEqual(['value.currency is required']);
    expect((await put({ source: 'fixed', amount: -5, currency: 'USD' })).json().issues).toEqual(['value.amount must be a positive number']);
    expect((await put({ source: 'fixed', amount: 5, currency: 'XYZ' })).json().issues).toEqual(['value.currency must be an ISO 4217 currency code such as USD or EUR']);
    expect((await put({ source: 'bonus' })).json().issues).toEqual(['value.source must be one of order_total, fixed, none']);
  });
});

describe('TikTok connection', () => {
  const token = 'act.example-events-api-token-1234567890';

  it('stores the token encrypted and never returns it', async () => {
    const ws = await newWorkspace();
    const url = `/admin/workspaces/${ws.id}/tiktok`;
    expect((await admin('GET', url)).statusCode).toBe(404);
    const saved = await admin('PUT', url, { accessToken: token, advertiserId: '7012345678901234567', pixelCode: 'CIDGJS3C77U7QBTMVDP0' });
    expect(saved.json()).toMatchObject({ workspaceId: ws.id, advertiserId: '7012345678901234567', pixelCode: 'CIDGJS3C77U7QBTMVDP0', source: 'manual', status: 'active' });
    expect(saved.body).not.toContain(token);
    expect((await admin('GET', url)).body).not.toContain(token);
    const row = await testDb.db('tiktok_connections').where({ workspace_id: ws.id }).first();
    expect(row?.access_token_ciphertext).not.toContain(token);
    expect((await subject.repos.tiktokConnections.withToken(ws.id))?.accessToken).toBe(token);

    expect((await admin('DELETE', url)).json()).toEqual({ deleted: true });
    expect((await admin('GET', url)).statusCode).toBe(404);
  });

  it('sets the App ID that app events are sent under, keeps it across a new token, and clears it', async () => {
    const ws = await newWorkspace();
    const url = `/admin/workspaces/${ws.id}/tiktok`;
    expect((await admin('PUT', `${url}/app`, { appId: '7301234567890123456' })).statusCode).toBe(404);
    await admin('PUT', url, { accessToken: token, pixelCode: 'CIDGJS3C77U7QBTMVDP0' });
    expect((await admin('PUT', `${url}/app`, { appId: '7301234567890123456' })).json()).toMatchObject({ appId: '7301234567890123456' });
    await admin('PUT', url, { accessToken: `${token}-rotated`, pixelCode: 'CIDGJS3C77U7QBTMVDP0' });
    expect((await admin('GET', url)).json()).toMatchObject({ appId: '7301234567890123456' });
    expect((await admin('PUT', `${url}/app`, { appId: 'com.shop.app' })).json().issues).toEqual([
      'appId must be the TikTok App ID: digits only, e.g. 7123456789012345678',
    ]);
    expect((await admin('PUT', `${url}/app`, { appId: null })).json()).toMatchObject({ appId: null });
  });

  it('names malformed identifiers', async () => {
    const ws = await newWorkspace();
    const response = await admin('PUT', `/admin/workspaces/${ws.id}/tiktok`, { accessToken: token, advertiserId: 7012345678, pixelCode: 'cidgjs3c77' });
    expect(response.json().issues).toEqual([
      'advertiserId must be a string of digits (JSON numbers lose precision at this size)',
      'pixelCode must be the pixel code: upper-case letters and digits, e.g. CIDGJS3C77U7QBTMVDP0',
    ]);
    expect((await admin('PUT', `/admin/workspaces/${ws.id}/tiktok`, { pixelCode: 'CIDGJS3C77U7QBTMVDP0' })).json().issues).toEqual(['accessToken is required']);
  });
});

describe('conversions', () => {
  async function seedConversions(ws: Workspace) {
    await subject.repos.conversionRules.put(ws.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    const purchase = (n: number) => ({ type: 'track' as const, messageId: `m-${n}`, event: 'purchase', userId: 'u1', properties: { order_id: `o-${n}`, total: n } });
    const recordBatch = createBatchRecorder(subject.repos);
    // Three conversions committed together share one created_at; two more arrive later.
    const together = await recordBatch(ws, [purchase(1), purchase(2), purchase(3)], { receivedAt: new Date() });
    const later = await recordBatch(ws, [purchase(4), purchase(5)], { receivedAt: new Date() });
    return [...together.conversions, ...later.conversions].map((c) => c.id);
  }

  it('lists newest first with cursor paging that neither skips nor repeats, and filters by status', async () => {
    const ws = await newWorkspace();
    const ids = await seedConversions(ws);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { conversions: { id: string }[]; nextCursor: string | null } = (
        await admin('GET', `/admin/workspaces/${ws.id}/conversions?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      seen.push(...page.conversions.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    const unpaged = (await admin('GET', `/admin/workspaces/${ws.id}/conversions`)).json().conversions.map((c: { id: string }) => c.id);
    expect(seen).toEqual(unpaged);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen.slice(0, 2))).toEqual(new Set(ids.slice(3)));

    await subject.repos.conversions.finish(ids[0] as string, { status: 'skipped', reason: 'no ttclid for the resolved visitors' });
    const skipped = (await admin('GET', `/admin/workspaces/${ws.id}/conversions?status=skipped`)).json().conversions;
    expect(skipped).toEqual([expect.objectContaining({ id: ids[0], status: 'skipped', reason: 'no ttclid for the resolved visitors' })]);
  });

  it('shows everything about one conversion: payload sent, TikTok answer, click, workflow', async () => {
    const ws = await newWorkspace();
    const [id] = await seedConversions(ws);
    const payload = { event_source: 'web', event_source_id: 'CIDGJS3C77U7QBTMVDP0', data: [{ event: 'CompletePayment', user: { ttclid: 'E.C.P.x' } }] };
    await subject.repos.conversions.update(id as string, {
      ttclid: 'E.C.P.x',
      click_captured_at: new Date('2026-01-02T03:04:05Z'),
      attempts: 1,
      request_payload: JSON.stringify(payload) as never,
      response_body: JSON.stringify({ code: 40002 }) as never,
    });
    await subject.repos.conversions.finish(id as string, { status: 'failed', tiktokCode: 40002, tiktokMessage: 'Invalid pixel code', tiktokRequestId: 'req-1' });

    const detail = declared('GET', '/admin/workspaces/:workspaceId/conversions/:conversionId', 200).parse((await admin('GET', `/admin/workspaces/${ws.id}/conversions/${id}`)).json()) as { workflowId: string };
    expect(detail).toMatchObject({
      id,
      status: 'failed',
      tiktokEvent: 'CompletePayment',
      eventId: 'o-1',
      attempts: 1,
      workflowUrl: `http://temporal.test/namespaces/default/workflows/${detail.workflowId}`,
      click: { ttclid: 'E.C.P.x', capturedAt: '2026-01-02T03:04:05.000Z' },
      requestPayload: payload,
      tiktokResponse: { code: 40002, message: 'Invalid pixel code', requestId: 'req-1', body: { code: 40002 } },
    });
  });

  it('sends failed conversions again by ID or by filter, leaves others alone, and logs who asked', async () => {
    const ws = await newWorkspace();
    const [rejected, exhausted, delivered, pending] = await seedConversions(ws);
    await subject.repos.conversions.finish(rejected as string, { status: 'failed', reason: 'tiktok_rejected', tiktokCode: 40001 });
    await subject.repos.conversions.finish(exhausted as string, { status: 'failed', reason: 'delivery_retries_exhausted', tiktokCode: 50000 });
    await subject.repos.conversions.finish(delivered as string, { status: 'delivered', tiktokCode: 0 });
    const retry = (body: unknown) => admin('POST', `/admin/workspaces/${ws.id}/conversions/retry`, body);

    expect((await retry({ conversionIds: [rejected, delivered, pending] })).json()).toEqual({ requeued: 1, conversionIds: [rejected] });
    expect(await subject.repos.conversions.find(rejected as string)).toMatchObject({ status: 'pending', reason: null, tiktok_code: null, workflow_id: `conversion-pipeline-${ws.id}` });
    expect(await subject.repos.conversions.find(delivered as string)).toMatchObject({ status: 'delivered' });
    expect(subject.starts.woken).toContain(ws.id);

    expect((await retry({ reason: 'delivery_retries_exhausted', tiktokEvent: 'CompletePayment' })).json()).toEqual({ requeued: 1, conversionIds: [exhausted] });
    expect((await retry({ reason: 'delivery_retries_exhausted' })).json()).toEqual({ requeued: 0, conversionIds: [] });
    const log = await subject.repos.changeLog.list(ws.id, { limit: 10 });
    expect(log.map((entry) => [entry.actor, entry.action, entry.after])).toEqual([
      ['operator', 'conversions.retry', { status: 'failed', reason: 'delivery_retries_exhausted', tiktokEvent: 'CompletePayment', requeued: 1 }],
      ['operator', 'conversions.retry', { conversionIds: [rejected, delivered, pending], requeued: 1 }],
    ]);
    expect((await subject.repos.conversionHistory.list(rejected as string)).map((h) => [h.step, h.detail])).toEqual([['retry_requested', { by: 'operator' }]]);
  });

  it('names what is wrong with a retry request', async () => {
    const ws = await newWorkspace();
    const retry = (body: unknown) => admin('POST', `/admin/workspaces/${ws.id}/conversions/retry`, body);
    expect((await retry({})).json().issues).toEqual(['body must give conversionIds or at least one of status, reason, tiktokEvent, from, to']);
    expect((await retry({ conversionIds: ['0195f0e1-7c2a-7000-8000-000000000001'], reason: 'expired' })).json().issues).toEqual([
      'conversionIds cannot be combined with a filter (status, reason, tiktokEvent, from, to): give one or the other',
    ]);
    expect((await retry({ status: 'delivered', from: 'yesterday', conversionIds: [] })).json().issues).toEqual([
      'conversionIds must name at least one conversion',
      'status must be failed or skipped: only those can be sent again',
      'from must be an ISO-8601 date-time, e.g. 2026-11-23T00:00:00Z',
    ]);
  });

  it('shows the request ID in the list, and the warnings found at ingest in the list and the detail', async () => {
    const ws = await newWorkspace();
    await subject.repos.conversionRules.put(ws.id, { sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    const recordBatch = createBatchRecorder(subject.repos);
    const { conversions } = await recordBatch(
      ws,
      [{ type: 'track', messageId: 'm-comma', event: 'Order Completed', userId: 'u1', properties: { order_id: 'o-comma', total: '12,50', currency: 'EUR' } }],
      { receivedAt: new Date() },
    );
    const id = conversions[0]?.id as string;
    await subject.repos.conversions.finish(id, { status: 'delivered', tiktokCode: 0, tiktokRequestId: '2026112312000000ABCDEF0123456789ABCD' });
    const warning = {
      code: 'value_unreadable',
      field: 'properties.total',
      found: '"12,50"',
      message: 'properties.total is "12,50", not an amount (a number of zero or more, such as 12.5): the conversion is sent without a value',
    };
    const [listed] = (await admin('GET', `/admin/workspaces/${ws.id}/conversions`)).json().conversions;
    expect(listed).toMatchObject({ id, value: null, tiktokRequestId: '2026112312000000ABCDEF0123456789ABCD', warnings: [warning] });
    expect((await admin('GET', `/admin/workspaces/${ws.id}/conversions/${id}`)).json()).toMatchObject({ value: null, warnings: [warning], repeatedBy: [] });
  });

  it('marks an event that repeats an order_id as a duplicate of the first conversion, in the detail and the events list', async () => {
    const ws = await newWorkspace();
    const [, second] = await seedConversions(ws);
    const recordBatch = createBatchRecorder(subject.repos);
    const resent = (messageId: string) => ({ type: 'track' as const, messageId, event: 'purchase', userId: 'u1', properties: { order_id: 'o-2', total: 2 } });
    const again = await recordBatch(ws, [resent('m-2-again'), resent('m-2-third')], { receivedAt: new Date() });
    expect(again).toMatchObject({ stored: 2, conversions: [] });

    const detail = (await admin('GET', `/admin/workspaces/${ws.id}/conversions/${second}`)).json();
    expect(detail.repeatedBy).toEqual([
      { id: expect.any(String), messageId: 'm-2-again', event: 'purchase', receivedAt: expect.any(String) },
      { id: expect.any(String), messageId: 'm-2-third', event: 'purchase', receivedAt: expect.any(String) },
    ]);
    const { events } = (await admin('GET', `/admin/workspaces/${ws.id}/events`)).json();
    expect(events.map((e: { messageId: string; duplicateOfConversionId: string | null }) => [e.messageId, e.duplicateOfConversionId])).toEqual(
      expect.arrayContaining([
        ['m-2-again', second],
        ['m-2-third', second],
        ['m-2', null],
      ]),
    );
  });

  it('names a bad status, limit, cursor or ID, and answers 404 for another workspace\'s conversion', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const [id] = await seedConversions(other);
    const list = (query: string) => admin('GET', `/admin/workspaces/${ws.id}/conversions?${query}`);
    expect((await list('status=lost&limit=0')).json().issues).toEqual(['status must be one of pending, delivered, skipped, failed', 'limit must be a whole number from 1 to 200']);
    expect((await list('cursor=bm9wZQ')).json().message).toBe('cursor must be a nextCursor value returned by this endpoint');
    expect((await admin('GET', `/admin/workspaces/${ws.id}/conversions/42`)).json().issues).toEqual(['conversionId must be a conversion ID (a UUID)']);
    expect((await admin('GET', `/admin/workspaces/${ws.id}/conversions/${id}`)).statusCode).toBe(404);
  });
});

describe('events', () => {
  it('lists received events newest first, without their messages, with cursor paging and a name filter', async () => {
    const ws = await newWorkspace();
    const recordBatch = createBatchRecorder(subject.repos);
    const track = (n: number, event = 'Product Viewed') => ({ type: 'track' as const, messageId: `e-${n}`, event, anonymousId: 'a1', context: { traits: { email: 'jo@example.com' } } });
    await recordBatch(ws, [track(1), track(2), track(3, 'Cart Viewed')], { receivedAt: new Date() });
    await recordBatch(ws, [track(4), track(5)], { receivedAt: new Date() });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await admin('GET', `/admin/workspaces/${ws.id}/events?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.body).not.toContain('jo@example.com');
      const page: { events: { messageId: string }[]; nextCursor: string | null } = response.json();
      seen.push(...page.events.map((e) => e.messageId));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(['e-1', 'e-2', 'e-3', 'e-4', 'e-5']));
    expect(new Set(seen.slice(0, 2))).toEqual(new Set(['e-4', 'e-5']));

    const carts = (await admin('GET', `/admin/workspaces/${ws.id}/events?event=Cart%20Viewed`)).json();
    expect(carts).toEqual({
      events: [
        {
          id: expect.any(String),
          messageId: 'e-3',
          type: 'track',
          eventName: 'Cart Viewed',
          userId: null,
          anonymousId: 'a1',
          occurredAt: expect.any(String),
          receivedAt: expect.any(String),
          duplicateOfConversionId: null,
        },
      ],
      nextCursor: null,
    });
    expect((await admin('GET', `/admin/workspaces/${ws.id}/events?limit=500&cursor=x`)).json().issues).toEqual([
      'limit must be a whole number from 1 to 200',
    ]);
    expect((await admin('GET', `/admin/workspaces/${ws.id}/events?cursor=bm9wZQ`)).json().message).toBe('cursor must be a nextCursor value returned by this endpoint');
  });
});

describe('health and metrics', () => {
  it('reports liveness, readiness, and request and event counts without auth', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    const ws = await newWorkspace();
    const { key } = await subject.repos.apiKeys.create(ws.id, 'metrics');
    const batch = [1, 2, 2].map((n) => ({ type: 'track', event: 'viewed', anonymousId: 'a1', messageId: `metrics-${n}` }));
    await app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${key}` }, payload: { batch } });

    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('signalbox_http_requests_total{method="GET",route="/healthz",status="200"} 1');
    expect(metrics).toContain('signalbox_http_requests_total{method="POST",route="/v1/batch",status="200"} 1');
    expect(metrics).toContain('signalbox_events_stored_total 2');
    expect(metrics).toContain('signalbox_events_duplicate_total 1');
    expect(metrics).toContain('signalbox_batch_messages_count 1');
  });
});
