import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';

import { Signalbox } from '../src/client.js';
import type { SignalboxFlushError } from '../src/errors.js';
import { installFakeClock } from './helpers/fake-clock.js';
import { closeTestClients, createTestClient, TEST_API_KEY } from './helpers/test-client.js';
import { TestTransport, type Reply } from './helpers/test-transport.js';
import { nextTurn, waitUntil } from './helpers/wait.js';

type Clock = ReturnType<typeof installFakeClock>;

/** An ingest API that takes the request and never answers. */
const NEVER: Reply = () => new Promise(() => undefined);

/** Whether `promise` has settled, without waiting for it. */
function settledState<T>(promise: Promise<T>): () => 'pending' | 'resolved' | 'rejected' {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  return () => state;
}

describe('flush, close and shutdown', () => {
  let clock: Clock;
  beforeEach(() => {
    clock = installFakeClock();
  });
  afterEach(() => {
    closeTestClients();
    clock.uninstall();
  });

  it('close() settles by its 10 s default deadline against an ingest that never answers, counting what it abandons', async () => {
    const { client, transport, errors } = createTestClient({ flushAt: 2 });
    transport.reply(NEVER, NEVER);
    for (let i = 0; i < 3; i += 1) await client.track({ event: `e${i}`, userId: 'u' });
    const closing = client.close();
    const state = settledState(closing);
    await clock.tickAsync(9_999);
    assert.strictEqual(state(), 'pending');
    await clock.tickAsync(1);
    await assert.rejects(closing, (error: SignalboxFlushError) => {
      assert.deepStrictEqual([error.failedCount, error.pendingCount, error.droppedCount, error.totalCount], [3, 3, 0, 3]);
      assert.strictEqual(error.message, '3 of 3 events were not delivered: 3 events still queued or in flight after the timeout of 10000 ms');
      return true;
    });
    assert.strictEqual(transport.closeCalls, 1);
    assert.deepStrictEqual(errors.map((error) => [error.reason, error.eventCount, error.detail]), [['abandoned', 3, 'close() gave up after 10000 ms']]);
    assert.strictEqual(clock.countTimers(), 0, 'no timer is left behind');
  });

  it('close({ timeoutMs }) gives up on a batch waiting to be retried at its own deadline', async () => {
    const { client, transport } = createTestClient();
    transport.reply({ status: 503, headers: { 'Retry-After': '120' } });
    await client.track({ event: 'e', userId: 'u' });
    const closing = client.close({ timeoutMs: 2_500 });
    await transport.waitForRequests(1);
    await clock.tickAsync(2_500);
    await assert.rejects(closing, /^SignalboxFlushError: 1 of 1 event was not delivered: 1 event still queued or in flight after the timeout of 2500 ms$/);
    assert.strictEqual(transport.requests.length, 1);
  });

  it('flush({ timeoutMs }) rejects at the deadline while delivery goes on, and the next flush sees it through', async () => {
    const { client, transport } = createTestClient();
    let answer!: () => void;
    transport.reply(() => new Promise((resolve) => (answer = () => resolve({ status: 200, headers: {}, body: '' }))));
    await client.track({ event: 'e', userId: 'u' });
    const first = client.flush({ timeoutMs: 1_000 });
    await transport.waitForRequests(1);
    await clock.tickAsync(1_000);
    await assert.rejects(first, (error: SignalboxFlushError) => error.pendingCount === 1 && error.failedCount === 1);
    const second = client.flush();
    answer();
    assert.deepStrictEqual(await second, { delivered: 1 });
  });

  it('close() rejects when an import with the defaults dropped events from the full queue, and says how many', async () => {
    const { client, errors } = createTestClient();
    for (let row = 0; row < 5_000; row += 1) await client.track({ event: 'purchase', userId: `customer-${row}`, messageId: `order-${row}` });
    await assert.rejects(client.close(), (error: SignalboxFlushError) => {
      assert.ok(error.droppedCount > 3_000, `dropped ${error.droppedCount}`);
      assert.strictEqual(error.failedCount, error.droppedCount);
      assert.strictEqual(error.totalCount, 5_000);
      assert.match(error.message, /^\d+ of 5000 events were not delivered: the queue is full \(maxQueueSize 1000\)$/);
      return true;
    });
    const { delivered, dropped } = client.getStats();
    assert.strictEqual(delivered + dropped, 5_000);
    assert.deepStrictEqual([...new Set(errors.map((error) => error.reason))], ['queue_overflow']);
  });

  it("with onQueueFull: 'wait' the same import slows down instead of dropping, and close() resolves with every event", async () => {
    const { client, transport } = createTestClient({ onQueueFull: 'wait' });
    let maxQueued = 0;
    for (let row = 0; row < 5_000; row += 1) {
      await client.track({ event: 'purchase', userId: `customer-${row}`, messageId: `order-${row}` });
      maxQueued = Math.max(maxQueued, client.getStats().queued);
    }
    const closed = await client.close();
    assert.strictEqual(new Set(transport.messages.map((message) => message.messageId)).size, 5_000);
    assert.strictEqual(closed.delivered, 5_000 - (client.getStats().delivered - closed.delivered), 'close() counts what it covered');
    assert.ok(maxQueued <= 1_000, `at most maxQueueSize waited, got ${maxQueued}`);
    assert.strictEqual(client.getStats().dropped, 0);
  });

  it('adds one beforeExit listener for any number of busy clients, and none once they are idle', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const hook = (globalThis as Record<symbol, { listener: () => void } | undefined>)[Symbol.for('@signalbox/api exit hook v1')];
      const installed = () => process.listeners('beforeExit').filter((listener) => listener === hook?.listener).length;
      await waitUntil(() => installed() === 0, 'earlier tests to leave nothing to send');
      const others = process.listenerCount('beforeExit');
      const clients = Array.from({ length: 11 }, () => createTestClient({ flushInterval: 60_000 }));
      for (const { client } of clients) await client.track({ event: 'e', userId: 'u' });
      assert.deepStrictEqual([installed(), process.listenerCount('beforeExit')], [1, others + 1]);
      process.emit('beforeExit', 0);
      await Promise.all(clients.map(({ transport }) => transport.waitForRequests(1)));
      await waitUntil(() => installed() === 0, 'the hook to be released');
      await nextTurn();
      assert.deepStrictEqual(warnings.map((warning) => warning.name), []);
    } finally {
      process.removeListener('warning', onWarning);
    }
  });

  it('sends nothing when enabled is false, yet still refuses bad calls', async () => {
    const transport = new TestTransport();
    const before = process.listenerCount('beforeExit');
    const client = new Signalbox({ apiKey: TEST_API_KEY, transport, enabled: false, flushAt: 1 });
    await client.track({ event: 'purchase', userId: 'u' });
    await assert.rejects(client.track({ event: 'purchase', userId: 'u', timestamp: '12345' }), /^SignalboxValidationError: track\(\): timestamp must be an ISO-8601/);
    assert.strictEqual(process.listenerCount('beforeExit'), before);
    assert.deepStrictEqual(await client.flush(), { delivered: 0 });
    assert.deepStrictEqual(await client.close(), { delivered: 0 });
    assert.strictEqual(transport.requests.length, 0);
  });
});

describe('calls whose promise nobody handles', () => {
  const unhandled: unknown[] = [];
  const recordUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', recordUnhandled);
  });
  afterEach(() => {
    process.removeListener('unhandledRejection', recordUnhandled);
    closeTestClients();
  });

  it('go to the error listeners instead of becoming unhandled rejections; awaited ones reach only their caller', async () => {
    const { client, errors } = createTestClient();
    const webhookBody: { customer?: string } = {};
    void client.track({ event: 'purchase', userId: webhookBody.customer as string });
    await waitUntil(() => errors.length === 1, 'the report');
    assert.deepStrictEqual([errors[0].reason, errors[0].eventCount, errors[0].detail], ['invalid_call', 1, 'track(): the event needs a userId or an anonymousId']);

    await assert.rejects(client.track({ event: 'purchase' } as never), /needs a userId or an anonymousId/);
    await client.identify('u', {}).then(() => client.track({ event: '' } as never)).catch(() => undefined);
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    assert.strictEqual(errors.length, 1, 'handled rejections are not reported again');
    assert.deepStrictEqual(unhandled, []);
  });

  it('without a listener give one process warning per client', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const client = new Signalbox({ apiKey: TEST_API_KEY, transport: new TestTransport() });
      void client.track({ event: 'e' } as never);
      void client.page(undefined as never);
      await waitUntil(() => warnings.length > 0, 'the warning');
      for (let turn = 0; turn < 5; turn += 1) await nextTurn();
      assert.deepStrictEqual(
        warnings.map((warning) => [warning.name, (warning as Error & { code?: string }).code]),
        [['SignalboxWarning', 'SIGNALBOX_UNHANDLED_FAILURE']],
      );
      assert.match(warnings[0].message, /^A call was refused and its promise was not handled: track\(\): the event needs a userId or an anonymousId\. Add a listener/);
      assert.deepStrictEqual(unhandled, []);
      await client.close();
    } finally {
      process.removeListener('warning', onWarning);
    }
  });

  it('also gives drops from a full queue to a process warning when nobody listens', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const transport = new TestTransport().reply(NEVER, NEVER, NEVER, NEVER);
      const client = new Signalbox({ apiKey: TEST_API_KEY, transport, flushAt: 1, maxQueueSize: 1 });
      for (let i = 0; i < 10; i += 1) await client.track({ event: 'e', userId: 'u' });
      await waitUntil(() => warnings.length > 0, 'the warning');
      assert.match(warnings[0].message, /^Dropped \d+ oldest queued events?: the queue is full \(maxQueueSize 1\)/);
      void client.close({ timeoutMs: 0 }).catch(() => undefined);
    } finally {
      process.removeListener('warning', onWarning);
    }
  });
});

describe('a client that is never closed', () => {
  it('can be garbage-collected once it has nothing left to send', () => {
    const script = path.join(__dirname, 'fixtures', 'collectable-client.js');
    const run = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8' });
    assert.strictEqual(run.stderr, '');
    assert.strictEqual(run.stdout.trim(), 'collected');
  });
});
