import { gzipSync, deflateSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createDatabase } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import type { Workspace } from '../../db/repositories/workspaces';
import { createSecretBox } from '../../db/secret-box';
import { reservePort } from '../../devstack/ports';
import { sha256Hex } from '../../domain/hashing';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { MAX_BATCH_BYTES } from '../http/limits';
import { createBatchRecorder } from './record-batch';
import { buildTestApp, TEST_ADMIN_TOKEN, TEST_SECRET_KEY, type TestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let shop: Workspace;
let shopKey: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  shop = await subject.repos.workspaces.create('Plant shop');
  shopKey = (await subject.repos.apiKeys.create(shop.id, 'backend')).key;
  await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

function post(url: string, payload: unknown, headers: InjectOptions['headers'] = {}) {
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  return app.inject({ method: 'POST', url, payload: body, headers: { authorization: `Bearer ${shopKey}`, 'content-type': 'application/json', ...headers } });
}

async function eventCount(workspaceId = shop.id): Promise<number> {
  const [row] = await testDb.db('events').where({ workspace_id: workspaceId }).count<{ count: string }[]>('* as count');
  return Number(row?.count);
}

const track = (messageId: string, extra: Record<string, unknown> = {}) => ({ type: 'track', messageId, event: 'page_scrolled', anonymousId: 'anon-1', ...extra });

describe('POST /v1/batch', () => {
  it('stores events, links identities and creates a pending conversion, then hands it to the workflow starter', async () => {
    const batch = [
      { type: 'page', messageId: 'm-landing', anonymousId: 'anon-phone', context: { page: { url: 'https://shop.example/ferns?ttclid=E.C.P.click-1' } } },
      { type: 'identify', messageId: 'm-identify', userId: 'user-42', anonymousId: 'anon-phone', traits: { email: ' Jane@Example.com ' } },
      { type: 'track', messageId: 'm-purchase', event: 'purchase', userId: 'user-42', anonymousId: 'anon-desktop', properties: { order_id: 'order-1001', total: '46.00', currency: 'usd' } },
    ];
    const response = await post('/v1/batch', { batch, sentAt: new Date().toISOString() });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const links = await testDb.db('identity_links').where({ workspace_id: shop.id, from_kind: 'user_id', from_value: 'user-42' }).select('to_kind', 'to_value');
    expect(links).toEqual(
      expect.arrayContaining([
        { to_kind: 'anonymous_id', to_value: 'anon-phone' },
        { to_kind: 'anonymous_id', to_value: 'anon-desktop' },
        { to_kind: 'email_sha256', to_value: sha256Hex('jane@example.com') },
      ]),
    );
    const visitor = await testDb.db('visitors').where({ workspace_id: shop.id, anonymous_id: 'anon-phone' }).first();
    expect(visitor?.ttclid).toBe('E.C.P.click-1');
    const conversions = await testDb.db('conversions').where({ workspace_id: shop.id, message_id: 'm-purchase' });
    expect(conversions).toHaveLength(1);
    expect(conversions[0]).toMatchObject({ status: 'pending', tiktok_event: 'CompletePayment', value: 46, currency: 'USD' });

    const started = await subject.starts.next();
    expect(started).toEqual([{ id: conversions[0]?.id, workflowId: conversions[0]?.workflow_id, workspaceId: shop.id, tiktokEvent: 'CompletePayment', eventId: conversions[0]?.event_id }]);
  });

  it('applies a conversion rule from the next request on, once added and once removed', async () => {
    const signup = (messageId: string) => ({ type: 'track', messageId, event: 'signed_up', anonymousId: 'anon-rule', properties: { plan: 'free' } });
    const conversionsOf = (messageId: string) => testDb.db('conversions').where({ workspace_id: shop.id, message_id: messageId });

    expect((await post('/v1/track', signup('m-rule-before'))).statusCode).toBe(200);
    await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'signed_up', tiktokEvent: 'CompleteRegistration', valueSource: 'none', fixedValue: null, currency: null });
    expect((await post('/v1/track', signup('m-rule-added'))).statusCode).toBe(200);
    await subject.starts.next();
    await subject.repos.conversionRules.remove(shop.id, 'signed_up');
    expect((await post('/v1/track', signup('m-rule-removed'))).statusCode).toBe(200);

    expect(await conversionsOf('m-rule-before')).toHaveLength(0);
    expect(await conversionsOf('m-rule-added')).toEqual([expect.objectContaining({ tiktok_event: 'CompleteRegistration', status: 'pending' })]);
    expect(await conversionsOf('m-rule-removed')).toHaveLength(0);
    expect(await testDb.db('events').where({ workspace_id: shop.id }).whereLike('message_id', 'm-rule-%').pluck('message_id')).toHaveLength(3);
  });

  it('accepts a repeated messageId and stores it once, without a second conversion start', async () => {
    const purchase = { type: 'track', messageId: 'm-retried', event: 'purchase', userId: 'user-7', properties: { order_id: 'order-2002', total: 12 } };
    expect((await post('/v1/batch', { batch: [purchase] })).statusCode).toBe(200);
    const first = await subject.starts.next();
    const again = await post('/v1/batch', { batch: [purchase, purchase] });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: true, duplicates: { messages: 2, conversions: 0 } });

    expect(await testDb.db('events').where({ workspace_id: shop.id, message_id: 'm-retried' }).count<{ count: string }[]>('* as count')).toEqual([{ count: '1' }]);
    expect(await testDb.db('conversions').where({ workspace_id: shop.id, message_id: 'm-retried' }).pluck('id')).toEqual([first[0]?.id]);
    const startsBefore = subject.starts.calls.length;
    expect((await post('/v1/track', { ...track('m-after'), event: 'page_scrolled' })).statusCode).toBe(200);
    expect(subject.starts.calls).toHaveLength(startsBefore);
  });

  it('stores a new message that repeats an order_id, marked as a duplicate of the first conversion, and says so', async () => {
    const purchase = (messageId: string) => ({ type: 'track', messageId, event: 'purchase', userId: 'user-8', properties: { order_id: 'order-3003', total: 30 } });
    const response = await post('/v1/batch', { batch: [purchase('m-order'), purchase('m-order-again')] });
    expect(response.json()).toEqual({ success: true, duplicates: { messages: 0, conversions: 1 } });
    const [conversion] = await subject.starts.next();
    const resent = await post('/v1/track', purchase('m-order-third'));
    expect(resent.json()).toEqual({ success: true, duplicates: { messages: 0, conversions: 1 } });

    const events = await testDb.db('events').where({ workspace_id: shop.id }).whereIn('message_id', ['m-order', 'm-order-again', 'm-order-third']).orderBy('id');
    expect(events.map((e) => [e.message_id, e.duplicate_of_conversion_id])).toEqual([
      ['m-order', null],
      ['m-order-again', conversion?.id],
      ['m-order-third', conversion?.id],
    ]);
    expect(await testDb.db('conversions').where({ workspace_id: shop.id, event_id: 'order-3003' }).pluck('id')).toEqual([conversion?.id]);
  });

  it('answers 400 naming each bad field with its index, and stores nothing of the request', async () => {
    const before = await eventCount();
    const response = await post('/v1/batch', {
      batch: [track('m-good-but-rejected'), { type: 'track', messageId: 'm-no-event', userId: 'u1' }, { type: 'track', event: 'x' }, { type: 'teleport', userId: 'u1' }],
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      message: 'batch[1].event is required for track messages (and 2 more problems)',
      issues: ['batch[1].event is required for track messages', 'batch[2] needs a userId or an anonymousId', 'batch[3].type must be one of track, identify, page, screen, group, alias'],
    });
    expect(await eventCount()).toBe(before);
  });

  it('answers 400 naming the limit for more than 10,000 messages', async () => {
    const batch = Array.from({ length: 10_001 }, (_, index) => ({ type: 'track', event: 'e', anonymousId: `a${index}` }));
    const response = await post('/v1/batch', { batch });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('batch must hold at most 10000 messages');
  });

  it('answers 400 for a body that is not JSON, saying what is wrong and at which line and column', async () => {
    const response = await post('/v1/batch', '{"batch": [');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_request', message: 'body is not valid JSON: the text ends where a value should be (line 1, column 12)' });
    const multiline = await post('/v1/track', '{\n  "event": "Order Completed",\n  "anonymousId": "a1"\n  "properties": {}\n}', { 'content-type': 'text/plain' });
    expect(multiline.json().message).toBe(`body is not valid JSON: expected ',' or '}' after a property value, found '"' (line 4, column 3)`);
    const gzipped = await post('/v1/batch', gzipSync('{"batch": [{"type": "track",}]}'), { 'content-encoding': 'gzip' });
    expect(gzipped.json().message).toBe(`body is not valid JSON: expected a property name in double quotes, found '}' (line 1, column 29)`);
    const poisoned = await post('/v1/track', '{"event": "e", "anonymousId": "a", "__proto__": {"admin": true}}');
    expect(poisoned.json()).toEqual({ error: 'invalid_request', message: 'body must not set __proto__ or constructor.prototype' });
  });

  it('accepts a gzip or deflate body, and Segment-style text/plain JSON', async () => {
    const gzipped = gzipSync(JSON.stringify({ batch: [track('m-gzip')] }));
    expect((await post('/v1/batch', gzipped, { 'content-encoding': 'gzip' })).statusCode).toBe(200);
    const deflated = deflateSync(JSON.stringify({ batch: [track('m-deflate')] }));
    expect((await post('/v1/batch', deflated, { 'content-encoding': 'deflate' })).statusCode).toBe(200);
    expect((await post('/v1/batch', { batch: [track('m-text')] }, { 'content-type': 'text/plain' })).statusCode).toBe(200);
    expect(await testDb.db('events').where({ workspace_id: shop.id }).whereIn('message_id', ['m-gzip', 'm-deflate', 'm-text']).count<{ count: string }[]>('* as count')).toEqual([{ count: '3' }]);
  });

  it('answers 400 for a missing body, one that is not valid gzip or not JSON whatever its Content-Type, and 415 for an unknown Content-Encoding', async () => {
    const broken = await post('/v1/batch', Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^body is not valid gzip data/);
    const brotli = await post('/v1/batch', { batch: [track('m-br')] }, { 'content-encoding': 'br' });
    expect(brotli.statusCode).toBe(415);
    expect(brotli.json()).toEqual({ error: 'unsupported_media_type', message: 'Content-Encoding br is not supported: send gzip, deflate or an uncompressed body' });
    const xml = await post('/v1/batch', '<batch/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(400);
    expect(xml.json()).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^body is not valid JSON: .* \(line 1, column 1\)$/) });
    const empty = await app.inject({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${shopKey}` } });
    expect(empty.json()).toEqual({ error: 'invalid_request', message: 'body must be a JSON object with a batch array', issues: ['body must be a JSON object with a batch array'] });
  });
});

describe('input that PostgreSQL cannot store', () => {
  /** 1,000 different CJK characters: 3,000 bytes that PostgreSQL cannot compress below an index entry's 2,704. */
  const longUserId = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join('');

  it.each([
    ['a NUL in the event name', { event: 'purch\u0000ase' }, 'batch[1].event contains a NUL character (\\u0000), which cannot be stored'],
    ['a NUL in a property key', { properties: { 'plan\u0000': 'pro' } }, 'batch[1].properties has a key "plan\\u0000" that contains a NUL character (\\u0000), which cannot be stored'],
    ['a NUL in a nested property value', { properties: { items: [{ sku: 'a\u0000' }] } }, 'batch[1].properties.items[0].sku contains a NUL character (\\u0000), which cannot be stored'],
    ['a lone surrogate', { context: { userAgent: 'x\ud800' } }, 'batch[1].context.userAgent contains an unpaired UTF-16 surrogate (\\ud800), which is not valid Unicode'],
    ['a timestamp in year 0000', { timestamp: '0000-01-01T00:00:00Z' }, 'batch[1].timestamp must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z'],
    ['a userId of 1,000 three-byte characters', { userId: longUserId }, 'batch[1].userId must be at most 1024 bytes of UTF-8 (characters beyond ASCII take 2 to 4 bytes)'],
  ])('answers 400 naming the field for %s, and stores nothing', async (_name, fields, issue) => {
    const before = await eventCount();
    const response = await post('/v1/batch', { batch: [track('m-fine'), track('m-unstorable', fields)] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_request', message: issue, issues: [issue] });
    expect(await eventCount()).toBe(before);
  });

  it('answers 400 for arrays nested 5,000 deep, checked without recursion', async () => {
    const tree = `${'['.repeat(5000)}"leaf"${']'.repeat(5000)}`;
    const response = await post('/v1/batch', `{"batch":[{"type":"track","event":"e","userId":"u","properties":{"tree":${tree}}}]}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual(['batch[0].properties nests objects and arrays more than 64 levels deep (counting the message); flatten it']);
  });

  it('answers 400 when the clock-skew correction moves a timestamp past year 9999', async () => {
    const sentAt = new Date(Date.now() - 365 * 86_400_000).toISOString();
    const response = await post('/v1/batch', { sentAt, batch: [track('m-skewed', { timestamp: '9999-12-01T00:00:00Z' })] });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual([expect.stringMatching(/^batch\[0\]\.timestamp must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z after correcting for the sender's clock with sentAt \(it becomes \+010000-/)]);
  });

  it('stores purchases whatever their total, as TikTok takes any amount', async () => {
    const purchase = (messageId: string, total: unknown) => ({ type: 'track', messageId, event: 'purchase', userId: 'big-spender', properties: { order_id: messageId, total } });
    const response = await post('/v1/batch', { batch: [purchase('m-1e15', 1e15), purchase('m-20-nines', '99999999999999999999')] });
    expect(response.statusCode).toBe(200);
    const values = await testDb.db('conversions').where({ workspace_id: shop.id }).whereIn('message_id', ['m-1e15', 'm-20-nines']).orderBy('message_id').select('value');
    expect(values).toEqual([{ value: 1e15 }, { value: 1e20 }]);
  });
});

describe('size limits', () => {
  it('answers 413 for a body over 5 MiB', async () => {
    const response = await post('/v1/batch', { batch: [track('m-big', { properties: { blob: 'x'.repeat(MAX_BATCH_BYTES) } })] });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'payload_too_large', message: `request body exceeds the limit of ${MAX_BATCH_BYTES} bytes (uncompressed)` });
  });

  it('answers 413 naming the index of a message over 32 KiB, and stores nothing', async () => {
    const before = await eventCount();
    const response = await post('/v1/batch', { batch: [track('m-small'), track('m-huge', { properties: { note: 'y'.repeat(40_000) } })] });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toMatch(/^batch\[1\] is \d+ bytes of JSON; the limit is 32768 bytes per message$/);
    expect(await eventCount()).toBe(before);
  });

  it('answers 413 for a gzip bomb, cutting it off while inflating', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"batch":[{"type":"track","event":"'), Buffer.alloc(3 * MAX_BATCH_BYTES, 'a'), Buffer.from('"}]}')]));
    expect(bomb.length).toBeLessThan(MAX_BATCH_BYTES / 10);
    const response = await post('/v1/batch', bomb, { 'content-encoding': 'gzip' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'payload_too_large', message: `request body exceeds the limit of ${MAX_BATCH_BYTES} bytes once decompressed` });
  });
});

describe('single-message endpoints', () => {
  it('take the type from the path', async () => {
    const response = await post('/v1/identify', { messageId: 'm-single-identify', userId: 'user-9', traits: { plan: 'pro' } });
    expect(response.statusCode).toBe(200);
    expect(await testDb.db('events').where({ workspace_id: shop.id, message_id: 'm-single-identify' }).first()).toMatchObject({ type: 'identify', user_id: 'user-9' });
  });

  it('reject a message whose type contradicts the path, and name missing fields without an index', async () => {
    const mismatch = await post('/v1/track', { type: 'identify', userId: 'u1' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().issues).toEqual(['type must be "track" (or left out) on /v1/track, not "identify"']);
    const missing = await post('/v1/track', { userId: 'u1' });
    expect(missing.json().issues).toEqual(['event is required for track messages']);
  });
});

describe('authentication', () => {
  const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('accepts HTTP Basic with the key as user name, as Segment libraries send it', async () => {
    expect((await post('/v1/track', track('m-basic'), { authorization: basic(shopKey) })).statusCode).toBe(200);
    const withPassword = await post('/v1/track', track('m-basic-2'), { authorization: basic(shopKey, 'secret') });
    expect(withPassword.statusCode).toBe(401);
    expect(withPassword.json().message).toMatch(/^Authorization Basic password must be empty/);
  });

  it('answers 401 for a missing or unknown key', async () => {
    const missing = await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch: [track('m-anon')] } });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toMatch(/^API key is missing: send Authorization: Bearer <API key>/);
    const unknown = await post('/v1/batch', { batch: [track('m-unknown')] }, { authorization: 'Bearer dk_not_a_real_key' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'unauthorized', message: 'API key is unknown or revoked' });
  });

  it('answers 401 at once after the key is revoked through the settings API', async () => {
    const { id, key } = await subject.repos.apiKeys.create(shop.id, 'soon revoked');
    expect((await post('/v1/track', track('m-before-revoke'), { authorization: `Bearer ${key}` })).statusCode).toBe(200);
    const revoke = await app.inject({ method: 'DELETE', url: `/admin/workspaces/${shop.id}/api-keys/${id}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(revoke.statusCode).toBe(200);
    const after = await post('/v1/track', track('m-after-revoke'), { authorization: `Bearer ${key}` });
    expect(after.statusCode).toBe(401);
  });

  it('answers 403 when X-Workspace-Id names another workspace, and accepts its own', async () => {
    const other = await post('/v1/track', track('m-mismatch'), { 'x-workspace-id': 'ws_someone_else' });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'forbidden', message: 'X-Workspace-Id ws_someone_else does not match the workspace of this API key' });
    expect((await post('/v1/track', track('m-match'), { 'x-workspace-id': shop.id })).statusCode).toBe(200);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a workspace exceeds its rate, without limiting other workspaces', async () => {
    const limited = buildTestApp(testDb.db, { rateLimit: { perSecond: 0.01, burst: 2 } });
    const busy = await limited.repos.workspaces.create('Busy shop');
    const busyKey = (await limited.repos.apiKeys.create(busy.id, 'backend')).key;
    const send = (key: string, id: string) =>
      limited.app.inject({ method: 'POST', url: '/v1/track', headers: { authorization: `Bearer ${key}` }, payload: track(id) });

    expect((await send(busyKey, 'm-r1')).statusCode).toBe(200);
    expect((await send(busyKey, 'm-r2')).statusCode).toBe(200);
    const third = await send(busyKey, 'm-r3');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json()).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^this workspace sent more than 0.01 requests per second \(bursts up to 2 more\); retry in \d+ seconds$/) });
    expect((await send(shopKey, 'm-other-workspace')).statusCode).toBe(200);
    expect(await eventCount(busy.id)).toBe(2);
    await limited.app.close();
  });
});

describe('storage errors', () => {
  it('answers 503 with Retry-After, never 500, when PostgreSQL refuses input that passed validation', async () => {
    // Stands for any refusal validation did not foresee; a real constraint, so PostgreSQL itself raises it (23514).
    await testDb.db.raw("ALTER TABLE events ADD CONSTRAINT refuses_one_name CHECK (event_name IS DISTINCT FROM 'refused_by_storage')");
    try {
      const response = await post('/v1/batch', { batch: [track('m-refused-1'), track('m-refused-2', { event: 'refused_by_storage' })] });

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ error: 'storage_error', message: 'the database could not store this request (SQLSTATE 23514); nothing was stored; retry in 5 seconds' });
      expect(await testDb.db('events').whereIn('message_id', ['m-refused-1', 'm-refused-2'])).toEqual([]);
    } finally {
      await testDb.db.raw('ALTER TABLE events DROP CONSTRAINT refuses_one_name');
    }
  });
});

describe('storage unavailable', () => {
  it('answers 503 with Retry-After when PostgreSQL refuses connections', async () => {
    const knexLog = jest.spyOn(console, 'log').mockImplementation(() => undefined); // knex reports each refused connection
    const closedPort = await reservePort(); // nothing listens on it
    const closed = createDatabase({ url: `postgres://postgres@127.0.0.1:${closedPort.port}/signalbox` });
    const unreachableRepos = createRepositories(closed, createSecretBox(TEST_SECRET_KEY));
    // Keys resolve against the live database, so the failure is the one of storing the batch.
    const storing = buildTestApp(testDb.db, { recordBatch: createBatchRecorder(unreachableRepos) });
    const whole = buildTestApp(closed);
    try {
      const request = { method: 'POST' as const, url: '/v1/batch', headers: { authorization: `Bearer ${shopKey}` }, payload: { batch: [track('m-db-down')] } };
      for (const response of [await storing.app.inject(request), await whole.app.inject(request)]) {
        expect(response.statusCode).toBe(503);
        expect(response.headers['retry-after']).toBe('5');
        expect(response.json()).toEqual({ error: 'storage_unavailable', message: 'the database is unavailable; retry in 5 seconds' });
      }
      const readiness = await whole.app.inject({ method: 'GET', url: '/readyz' });
      expect(readiness.statusCode).toBe(503);
      // Unauthenticated: the database's own error text (addresses, ports, names) stays in the log.
      expect(readiness.json()).toEqual({ status: 'not_ready', error: 'storage_unavailable', message: 'the database is not answering' });
    } finally {
      await storing.app.close();
      await whole.app.close();
      await closed.destroy();
      closedPort.release();
      knexLog.mockRestore();
    }
  });
});
