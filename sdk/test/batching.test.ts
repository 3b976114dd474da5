import * as assert from 'assert';

import type { SignalboxFlushError } from '../src/errors.js';
import { MAX_BATCH_BYTES } from '../src/rules/index.js';
import { installFakeClock } from './helpers/fake-clock.js';
import { closeTestClients, createTestClient, TEST_API_KEY } from './helpers/test-client.js';
import type { Reply } from './helpers/test-transport.js';
import { deferred, nextTurn, waitUntil } from './helpers/wait.js';

type Clock = ReturnType<typeof installFakeClock>;

describe('batching', () => {
  let clock: Clock;
  beforeEach(() => {
    clock = installFakeClock();
  });
  afterEach(() => {
    closeTestClients();
    clock.uninstall();
  });

  /** Lets gzip and promise chains run, so that a send that was due has reached the transport. */
  async function settle(): Promise<void> {
    for (let turn = 0; turn < 50; turn += 1) await nextTurn();
  }

  it('sends nothing before flushAt events are queued, then sends them in one gzipped, authorized request', async () => {
    const { client, transport } = createTestClient({ flushAt: 3 });
    await client.track({ event: 'e1', userId: 'u' });
    await client.track({ event: 'e2', userId: 'u' });
    await settle();
    assert.strictEqual(transport.requests.length, 0);
    await client.track({ event: 'e3', userId: 'u' });
    await transport.waitForRequests(1);
    const [request] = transport.requests;
    assert.deepStrictEqual(request.batch.map((message) => message.event), ['e1', 'e2', 'e3']);
    assert.strictEqual(request.url, 'https://ingest.test/v1/batch');
    assert.strictEqual(request.headers.Authorization, `Bearer ${TEST_API_KEY}`);
    assert.strictEqual(request.headers['Content-Encoding'], 'gzip');
    assert.strictEqual(request.headers['Content-Type'], 'application/json');
    assert.strictEqual(request.sentAt, new Date(clock.now).toISOString());
    assert.strictEqual(request.timeoutMs, 10_000);
  });

  it('sends what is queued once flushInterval has passed, even below flushAt', async () => {
    const { client, transport } = createTestClient({ flushAt: 20, flushInterval: 5_000 });
    await client.track({ event: 'lonely', anonymousId: 'a' });
    await clock.tickAsync(4_999);
    await settle();
    assert.strictEqual(transport.requests.length, 0);
    await clock.tickAsync(1);
    await transport.waitForRequests(1);
    assert.deepStrictEqual(transport.messages.map((message) => message.event), ['lonely']);
  });

  it('flush() sends everything queued at once and resolves when it is delivered', async () => {
    const { client, transport } = createTestClient();
    for (let i = 0; i < 5; i += 1) await client.track({ event: `e${i}`, userId: 'u' });
    assert.deepStrictEqual(await client.flush(), { delivered: 5 });
    assert.strictEqual(transport.messages.length, 5);
    assert.deepStrictEqual(client.getStats(), { queued: 0, inFlight: 0, delivered: 5, failed: 0, dropped: 0 });
  });

  it('flush() with nothing queued resolves without a request', async () => {
    const { client, transport } = createTestClient();
    await client.flush();
    assert.strictEqual(transport.requests.length, 0);
  });

  it('flush() rejects saying how many events failed and why', async () => {
    const { client, transport } = createTestClient({ flushAt: 2 });
    const gate = deferred();
    const unauthorized = '{"error":"unauthorized","message":"unknown or revoked API key"}';
    transport.reply(() => gate.promise.then(() => ({ status: 401, headers: {}, body: unauthorized })));
    for (let i = 0; i < 2; i += 1) await client.track({ event: `e${i}`, userId: 'u' });
    await transport.waitForRequests(1);
    await client.track({ event: 'e2', userId: 'u' });
    const flushed = client.flush();
    gate.resolve();
    await assert.rejects(flushed, (error: SignalboxFlushError) => {
      assert.strictEqual(error.name, 'SignalboxFlushError');
      assert.strictEqual(error.message, '2 of 3 events were not delivered: HTTP 401: unknown or revoked API key');
      assert.deepStrictEqual([error.failedCount, error.totalCount], [2, 3]);
      return true;
    });
    assert.deepStrictEqual(client.getStats(), { queued: 0, inFlight: 0, delivered: 1, failed: 2, dropped: 0 });
  });

  it('never puts more than 10,000 events in one request', async () => {
    const { client, transport } = createTestClient({ maxQueueSize: 25_000 });
    for (let i = 0; i < 25_000; i += 1) await client.track({ event: 'e', userId: `u${i}` });
    await client.flush();
    const sizes = transport.requests.map((request) => request.batch.length);
    assert.ok(sizes.every((size) => size <= 10_000), `batch sizes ${sizes.join(', ')}`);
    assert.strictEqual(sizes.filter((size) => size === 10_000).length, 2, `batch sizes ${sizes.join(', ')}`);
    assert.strictEqual(new Set(transport.messages.map((message) => message.userId)).size, 25_000);
  });

  it('never sends more than 5 MiB of uncompressed JSON in one request', async () => {
    const { client, transport } = createTestClient({ maxQueueSize: 400 });
    const padding = 'x'.repeat(30_000);
    for (let i = 0; i < 400; i += 1) await client.track({ event: 'big', userId: `u${i}`, properties: { padding } });
    await client.flush();
    assert.ok(transport.requests.length >= 3, `12 MB of events need at least 3 requests, got ${transport.requests.length}`);
    for (const request of transport.requests) assert.ok(request.uncompressedBytes <= MAX_BATCH_BYTES);
    assert.ok(transport.requests.some((request) => request.uncompressedBytes > MAX_BATCH_BYTES - 31_000), 'batches are filled');
    assert.strictEqual(transport.messages.length, 400);
  });

  it('keeps at most 4 requests in flight; what arrives meanwhile goes out in the next, bigger batch', async () => {
    const gate = deferred();
    const { client, transport } = createTestClient({ flushAt: 2 });
    const held: Reply = () => gate.promise.then(() => ({ status: 200, headers: {}, body: '' }));
    transport.reply(held, held, held, held);
    for (let i = 0; i < 8; i += 1) await client.track({ event: `e${i}`, userId: 'u' });
    await transport.waitForRequests(4);
    for (let i = 8; i < 20; i += 1) await client.track({ event: `e${i}`, userId: 'u' });
    await settle();
    assert.strictEqual(transport.requests.length, 4);
    gate.resolve();
    await transport.waitForRequests(5);
    await client.flush();
    assert.deepStrictEqual(transport.requests.map((request) => request.batch.length), [2, 2, 2, 2, 12]);
  });

  it('two flush() calls in parallel send each event once and each waits for everything queued before it', async () => {
    const firstGate = deferred();
    const { client, transport } = createTestClient();
    transport.reply(() => firstGate.promise.then(() => ({ status: 200, headers: {}, body: '' })));
    await client.track({ event: 'first', userId: 'u' });
    let firstDone = false;
    const first = client.flush().then(() => (firstDone = true));
    await transport.waitForRequests(1);
    await client.track({ event: 'second', userId: 'u' });
    let secondDone = false;
    const second = client.flush().then(() => (secondDone = true));
    await transport.waitForRequests(2);
    await settle();
    assert.deepStrictEqual([firstDone, secondDone], [false, false], 'the second flush also waits for the first batch');
    firstGate.resolve();
    await Promise.all([first, second]);
    assert.deepStrictEqual(transport.messages.map((message) => message.event), ['first', 'second']);
  });

  it('drops the oldest queued events beyond maxQueueSize and reports them once per burst', async () => {
    const gate = deferred();
    const { client, transport, errors, logs } = createTestClient({ flushAt: 3, maxQueueSize: 3, debug: true });
    const held: Reply = () => gate.promise.then(() => ({ status: 200, headers: {}, body: '' }));
    transport.reply(held, held, held, held);
    for (let i = 0; i < 12; i += 1) await client.track({ event: `in-flight-${i}`, userId: 'u' });
    await transport.waitForRequests(4);
    for (let i = 0; i < 5; i += 1) void client.track({ event: `queued-${i}`, userId: 'u' });
    await settle();
    assert.deepStrictEqual(errors.map((error) => [error.reason, error.eventCount]), [['queue_overflow', 2]]);
    assert.strictEqual(errors[0].message, 'Dropped 2 oldest queued events: the queue is full (maxQueueSize 3)');
    assert.ok(logs.includes('[Signalbox] Dropped 2 oldest queued events: the queue is full (maxQueueSize 3)'));
    gate.resolve();
    await assert.rejects(client.flush(), (error: SignalboxFlushError) => {
      assert.deepStrictEqual([error.failedCount, error.droppedCount, error.pendingCount, error.totalCount], [2, 2, 0, 17]);
      assert.strictEqual(error.message, '2 of 17 events were not delivered: the queue is full (maxQueueSize 3)');
      return true;
    });
    const sent = transport.messages.map((message) => message.event as string).filter((event) => event.startsWith('queued'));
    assert.deepStrictEqual(sent, ['queued-2', 'queued-3', 'queued-4']);
    assert.deepStrictEqual(client.getStats(), { queued: 0, inFlight: 0, delivered: 15, failed: 0, dropped: 2 });
    assert.deepStrictEqual(await client.flush(), { delivered: 0 }, 'the drops were reported once');
  });

  it('close() flushes, releases the transport once, stops timers, and is idempotent', async () => {
    const { client, transport } = createTestClient();
    await client.track({ event: 'last', userId: 'u' });
    assert.strictEqual(clock.countTimers(), 1, 'the flushInterval timer is armed');
    const closing = client.close();
    assert.strictEqual(client.close(), closing);
    await closing;
    assert.deepStrictEqual(transport.messages.map((message) => message.event), ['last']);
    assert.strictEqual(transport.closeCalls, 1);
    assert.strictEqual(clock.countTimers(), 0);
    await client.close();
    assert.strictEqual(transport.closeCalls, 1);
  });

  it('rejects every call after close()', async () => {
    const { client } = createTestClient();
    await client.close();
    const calls = [
      client.track({ event: 'e', userId: 'u' }),
      client.identify('u'),
      client.group('u', 'g'),
      client.page('u'),
    ];
    for (const [index, name] of ['track', 'identify', 'group', 'page'].entries()) {
      await assert.rejects(calls[index], new RegExp(`^SignalboxClosedError: ${name}\\(\\): the client is closed`));
    }
  });

  it('close() rejects like flush() when the last events fail, and still releases the transport', async () => {
    const { client, transport } = createTestClient({ retryLimit: 0 });
    transport.reply({ status: 403, body: '{"error":"forbidden","message":"workspace mismatch"}' });
    await client.track({ event: 'e', userId: 'u' });
    await assert.rejects(client.close(), /^SignalboxFlushError: 1 of 1 event was not delivered: HTTP 403: workspace mismatch$/);
    assert.strictEqual(transport.closeCalls, 1);
  });

  it('arms the interval timer only while events are queued', async () => {
    const { client, transport } = createTestClient({ flushAt: 2 });
    assert.strictEqual(clock.countTimers(), 0);
    await client.track({ event: 'e1', userId: 'u' });
    assert.strictEqual(clock.countTimers(), 1);
    await client.track({ event: 'e2', userId: 'u' });
    assert.strictEqual(clock.countTimers(), 0);
    await transport.waitForRequests(1);
    await waitUntil(() => client.getStats().delivered === 2, 'the delivery');
    assert.strictEqual(clock.countTimers(), 0);
  });
});
