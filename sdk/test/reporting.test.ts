import * as assert from 'assert';

import { Signalbox } from '../src/client.js';
import { installFakeClock } from './helpers/fake-clock.js';
import { closeTestClients, createTestClient, TEST_API_KEY } from './helpers/test-client.js';
import { TestTransport } from './helpers/test-transport.js';
import { nextTurn, waitUntil } from './helpers/wait.js';

type Clock = ReturnType<typeof installFakeClock>;

describe('failure reporting and debug output', () => {
  let clock: Clock;
  const unhandled: unknown[] = [];
  const recordUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  beforeEach(() => {
    clock = installFakeClock();
    unhandled.length = 0;
    process.on('unhandledRejection', recordUnhandled);
  });
  afterEach(() => {
    process.removeListener('unhandledRejection', recordUnhandled);
    closeTestClients();
    clock.uninstall();
  });

  /** Unhandled rejections are detected after the microtask queue drains; give them a few turns to show up. */
  async function assertNoUnhandledRejections(): Promise<void> {
    for (let turn = 0; turn < 20; turn += 1) await nextTurn();
    assert.deepStrictEqual(unhandled, []);
  }

  it('never turns a background failure into an unhandled rejection, with or without a listener', async () => {
    const transport = new TestTransport().reply(
      { status: 401, body: 'no' },
      { status: 400, body: 'bad' },
      { networkError: 'socket hang up' },
    );
    // No `error` listener at all: an EventEmitter would throw here.
    const client = new Signalbox({ apiKey: TEST_API_KEY, transport, flushAt: 2, retryLimit: 0 });
    void client.track({ event: 'sent-at-flushAt', userId: 'u' });
    void client.track({ event: 'sent-at-flushAt', userId: 'u' });
    await transport.waitForRequests(1);
    void client.track({ event: 'sent-by-the-timer', userId: 'u' });
    await clock.tickAsync(10_000);
    await transport.waitForRequests(2);
    void client.track({ event: 'sent-at-beforeExit', userId: 'u' });
    process.emit('beforeExit', 0);
    await waitUntil(() => client.getStats().failed === 4, 'four failures');
    await assertNoUnhandledRejections();
    await client.close();
  });

  it('gives each failure to the error listeners and counts it', async () => {
    const { client, transport, errors } = createTestClient({ flushAt: 2, retryLimit: 0 });
    transport.reply({ status: 400, body: '{"error":"invalid_batch","message":"batch[1].timestamp must be ISO-8601"}' });
    const second: Error[] = [];
    const listener = (error: Error): void => {
      second.push(error);
    };
    client.on('error', listener);
    await client.track({ event: 'a', userId: 'u' });
    await client.track({ event: 'b', userId: 'u' });
    await waitUntil(() => errors.length === 1 && client.getStats().delivered === 1, 'the failure');
    assert.strictEqual(errors[0].name, 'SignalboxDeliveryError');
    assert.deepStrictEqual([errors[0].reason, errors[0].eventCount, errors[0].statusCode], ['rejected', 1, 400], 'only the event the 400 named');
    assert.deepStrictEqual(second, errors);
    assert.deepStrictEqual(client.getStats(), { queued: 0, inFlight: 0, delivered: 1, failed: 1, dropped: 0 });

    client.off('error', listener);
    transport.reply({ status: 400, body: 'bad' });
    await client.track({ event: 'c', userId: 'u' });
    await client.track({ event: 'd', userId: 'u' });
    await waitUntil(() => errors.length === 2, 'the second failure');
    assert.strictEqual(second.length, 1, 'a removed listener hears nothing more');
  });

  it('keeps delivering when an error listener throws, without an unhandled rejection', async () => {
    const { client, transport } = createTestClient({ flushAt: 1, retryLimit: 0 });
    const originalConsoleError = console.error;
    const printed: unknown[][] = [];
    console.error = (...args: unknown[]) => printed.push(args);
    try {
      client.on('error', () => {
        throw new Error('listener bug');
      });
      transport.reply({ status: 401 });
      await client.track({ event: 'fails', userId: 'u' });
      await waitUntil(() => printed.length === 1, 'the listener error to be printed');
      await client.track({ event: 'works', userId: 'u' });
      await waitUntil(() => client.getStats().delivered === 1, 'the next delivery');
      assert.match(String(printed[0][0]), /an error listener threw/);
      await assertNoUnhandledRejections();
    } finally {
      console.error = originalConsoleError;
    }
  });

  it('accepts only "error" listeners', () => {
    const { client } = createTestClient();
    assert.throws(() => client.on('drop' as 'error', () => undefined), /emits only "error" events, not "drop"/);
  });

  it('prints the debug lines of a successful send', async () => {
    const { client, transport, logs } = createTestClient({ debug: true, flushAt: 2 });
    await client.track({ event: 'purchase', userId: 'u' });
    await client.identify('u', { email: 'ann@example.com' });
    await transport.waitForRequests(1);
    await waitUntil(() => logs.length === 4, 'four debug lines');
    assert.deepStrictEqual(logs, [
      '[Signalbox] Event queued: purchase',
      '[Signalbox] Event queued: identify',
      '[Signalbox] Flushing 2 events',
      '[Signalbox] Event sent successfully (2 events)',
    ]);
  });

  it('prints the reason for each retry and failure in debug mode', async () => {
    const { client, transport, logs } = createTestClient({ debug: true, flushAt: 1, retryLimit: 1 });
    transport.reply({ status: 503, headers: { 'Retry-After': '2' }, body: '{"message":"storage unavailable"}' }, { status: 503 }, { status: 503 });
    await client.track({ event: 'e', userId: 'u' });
    for (const wait of [1, 2]) {
      await waitUntil(() => clock.countTimers() === 1, `retry wait ${wait}`);
      await clock.nextAsync();
    }
    await waitUntil(() => logs.length === 5, 'five debug lines');
    assert.deepStrictEqual(logs.slice(0, 3), [
      '[Signalbox] Event queued: e',
      '[Signalbox] Flushing 1 event',
      '[Signalbox] Retrying 1 event in 2000 ms (as the server asked): HTTP 503: storage unavailable',
    ]);
    assert.match(logs[3], /^\[Signalbox\] Retrying 1 event in \d+ ms \(retry 1 of 1\): HTTP 503$/);
    assert.strictEqual(logs[4], '[Signalbox] Failed to deliver 1 event after 3 attempts: HTTP 503');
  });

  it('prints nothing when debug is off', async () => {
    const { client, transport, logs } = createTestClient({ flushAt: 1, retryLimit: 0 });
    transport.reply({ status: 500 });
    await client.track({ event: 'e', userId: 'u' });
    await client.flush().catch(() => undefined);
    assert.deepStrictEqual(logs, []);
  });
});
