import * as assert from 'assert';

import { parseRetryAfterMs } from '../src/retry-policy';
import { installFakeClock } from './helpers/fake-clock';
import { closeTestClients, createTestClient, type TestClient } from './helpers/test-client';
import type { Reply } from './helpers/test-transport';
import { waitUntil } from './helpers/wait';

type Clock = ReturnType<typeof installFakeClock>;

/** The retry rules of src/retry-policy.ts, one test each. */
describe('retries', () => {
  let clock: Clock;
  beforeEach(() => {
    clock = installFakeClock();
  });
  afterEach(() => {
    closeTestClients();
    clock.uninstall();
  });

  /** Sends one event, answering with `replies` in turn; returns the client and the flush() outcome. */
  async function sendOne(replies: Reply[], config: { retryLimit?: number } = {}) {
    const test = createTestClient(config);
    test.transport.reply(...replies);
    await test.client.track({ event: 'purchase', userId: 'user-1' });
    const outcome = test.client.flush().then(
      () => undefined,
      (error: Error) => error,
    );
    return { ...test, outcome };
  }

  /** Waits until the client is waiting to retry, then runs that wait; returns how long it was. */
  async function runRetryWait(test: TestClient, attemptsSoFar: number): Promise<number> {
    await test.transport.waitForRequests(attemptsSoFar);
    await waitUntil(() => clock.countTimers() === 1, 'the retry wait');
    const before = clock.now;
    await clock.nextAsync();
    return clock.now - before;
  }

  /** Answers every attempt, running retry waits, until the flush settles; returns its error, if any. */
  async function finish(test: TestClient & { outcome: Promise<Error | undefined> }): Promise<Error | undefined> {
    let settled = false;
    const outcome = test.outcome.finally(() => (settled = true));
    while (!settled) {
      await waitUntil(() => settled || clock.countTimers() > 0, 'a retry wait or the end');
      if (!settled) await clock.nextAsync();
    }
    return outcome;
  }

  it('R1: a 2xx response delivers the batch, with no retry', async () => {
    const test = await sendOne([{ status: 202, body: '{"success":true}' }]);
    assert.strictEqual(await test.outcome, undefined);
    assert.strictEqual(test.transport.requests.length, 1);
    assert.strictEqual(test.client.getStats().delivered, 1);
  });

  it('R2: a network error is retried', async () => {
    const test = await sendOne([{ networkError: 'connect ECONNREFUSED 127.0.0.1:443' }]);
    await runRetryWait(test, 1);
    assert.strictEqual(await test.outcome, undefined);
    assert.strictEqual(test.transport.requests.length, 2);
  });

  it('R3: a request that times out is retried', async () => {
    const test = await sendOne(['timeout']);
    await test.transport.waitForRequests(1);
    assert.strictEqual(test.transport.requests[0].timeoutMs, 10_000);
    await waitUntil(() => clock.countTimers() === 1, 'the request timeout');
    await clock.tickAsync(10_000);
    await runRetryWait(test, 1);
    assert.strictEqual(await test.outcome, undefined);
    assert.strictEqual(test.transport.requests.length, 2);
  });

  it('R4: 5xx responses are retried', async () => {
    const test = await sendOne([{ status: 500 }, { status: 502 }, { status: 503, body: '{"error":"unavailable","message":"storage unavailable"}' }]);
    assert.strictEqual(await finish(test), undefined);
    assert.strictEqual(test.transport.requests.length, 4);
  });

  it('R5: 408 Request Timeout is retried', async () => {
    const test = await sendOne([{ status: 408 }]);
    assert.strictEqual(await finish(test), undefined);
    assert.strictEqual(test.transport.requests.length, 2);
  });

  it('R6: 429 Too Many Requests is retried', async () => {
    const test = await sendOne([{ status: 429 }]);
    assert.strictEqual(await finish(test), undefined);
    assert.strictEqual(test.transport.requests.length, 2);
  });

  it('R7: Retry-After sets the wait, in seconds or as an HTTP date, capped at 30 s', async () => {
    const inFiveSeconds: Reply = () =>
      Promise.resolve({ status: 503, headers: { 'retry-after': new Date(clock.now + 5_000).toUTCString() }, body: '' });
    const test = await sendOne([
      { status: 429, headers: { 'Retry-After': '7' } },
      inFiveSeconds,
      { status: 429, headers: { 'Retry-After': '3600' } },
    ]);
    assert.strictEqual(await runRetryWait(test, 1), 7_000);
    assert.strictEqual(await runRetryWait(test, 2), 5_000);
    assert.strictEqual(await runRetryWait(test, 3), 30_000);
    assert.strictEqual(await test.outcome, undefined);
    assert.strictEqual(parseRetryAfterMs('soon', new Date()), undefined);
  });

  it('R8: without Retry-After, waits grow exponentially with jitter (50–100 % of 1 s, 2 s, 4 s)', async () => {
    const test = await sendOne([{ status: 503 }, { status: 503 }, { status: 503 }]);
    const waits = [await runRetryWait(test, 1), await runRetryWait(test, 2), await runRetryWait(test, 3)];
    assert.ok(waits[0] >= 500 && waits[0] <= 1_000, `first wait ${waits[0]}`);
    assert.ok(waits[1] >= 1_000 && waits[1] <= 2_000, `second wait ${waits[1]}`);
    assert.ok(waits[2] >= 2_000 && waits[2] <= 4_000, `third wait ${waits[2]}`);
    assert.strictEqual(await test.outcome, undefined);
  });

  for (const [status, body, detail] of [
    [400, '{"error":"invalid_batch","message":"batch[0].event is required"}', 'HTTP 400: batch[0].event is required'],
    [401, '{"error":"unauthorized","message":"unknown or revoked API key"}', 'HTTP 401: unknown or revoked API key'],
    [403, '{"error":"forbidden","message":"workspace mismatch"}', 'HTTP 403: workspace mismatch'],
    [413, 'Payload Too Large', 'HTTP 413: Payload Too Large'],
  ] as const) {
    it(`R9: ${status} is not retried; the failure names the status and the server's message`, async () => {
      const test = await sendOne([{ status, body }]);
      const error = await test.outcome;
      assert.strictEqual(error?.message, `1 of 1 event was not delivered: ${detail}`);
      assert.strictEqual(test.transport.requests.length, 1);
      assert.strictEqual(clock.countTimers(), 0);
      assert.deepStrictEqual(
        test.errors.map((failure) => [failure.reason, failure.statusCode, failure.eventCount, failure.message]),
        [['rejected', status, 1, `Failed to deliver 1 event: the ingest API rejected them (${detail}); not retried`]],
      );
    });
  }

  it('R10: after retryLimit retries the batch fails, and retryLimit 0 means a single attempt', async () => {
    const failing: Reply = { status: 503, body: '{"message":"storage unavailable"}' };
    const three = await sendOne([failing, failing, failing, failing, failing]);
    const error = await finish(three);
    assert.strictEqual(three.transport.requests.length, 4);
    assert.strictEqual(error?.message, '1 of 1 event was not delivered: HTTP 503: storage unavailable');
    assert.deepStrictEqual(
      three.errors.map((failure) => [failure.reason, failure.attempts, failure.message]),
      [['retries_exhausted', 4, 'Failed to deliver 1 event after 4 attempts: HTTP 503: storage unavailable']],
    );
    assert.strictEqual(three.client.getStats().failed, 1);

    const none = await sendOne([failing, failing], { retryLimit: 0 });
    await finish(none);
    assert.strictEqual(none.transport.requests.length, 1);
  });

  it('R11: a retry sends the same events with the same messageIds and a new sentAt', async () => {
    const test = createTestClient({ flushAt: 3 });
    test.transport.reply({ status: 503 });
    for (const event of ['a', 'b', 'c']) await test.client.track({ event, userId: 'u' });
    const outcome = test.client.flush();
    const waited = await runRetryWait(test, 1);
    await outcome;
    const [first, retry] = test.transport.requests;
    assert.deepStrictEqual(retry.batch, first.batch);
    assert.strictEqual(Date.parse(retry.sentAt) - Date.parse(first.sentAt), waited);
  });
});
