import * as assert from 'assert';

import { BackoffSchedule, parseRetryAfterMs } from '../src/retry-policy.js';
import { installFakeClock } from './helpers/fake-clock.js';
import { closeTestClients, createTestClient, type TestClient } from './helpers/test-client.js';
import type { Reply } from './helpers/test-transport.js';
import { nextTurn, waitUntil } from './helpers/wait.js';

type Clock = ReturnType<typeof installFakeClock>;
type RetryConfig = { retryLimit?: number; retryHorizon?: number };

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
  async function sendOne(replies: Reply[], config: RetryConfig = {}) {
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

  it('R6: a 429 pauses the whole client: no other batch is sent until the wait is over', async () => {
    const { client, transport } = createTestClient({ flushAt: 1 });
    transport.reply({ status: 429, headers: { 'Retry-After': '60' } });
    await client.track({ event: 'first', userId: 'u' });
    await transport.waitForRequests(1);
    await waitUntil(() => clock.countTimers() === 1, 'the retry wait');
    await client.track({ event: 'second', userId: 'u' });
    for (let turn = 0; turn < 50; turn += 1) await nextTurn(); // long enough for a batch that is due to reach the transport
    await clock.tickAsync(59_000);
    assert.deepStrictEqual(transport.messages.map((message) => message.event), ['first'], 'the second batch waits out the pause too');
    await clock.tickAsync(1_000);
    await transport.waitForRequests(3);
    assert.deepStrictEqual(transport.messages.map((message) => message.event).sort(), ['first', 'first', 'second']);
  });

  it('R7: a Retry-After of 4 minutes is waited out in full, and does not spend the one retry allowed', async () => {
    const test = await sendOne([{ status: 429, headers: { 'Retry-After': '240' } }, { status: 503 }], { retryLimit: 1 });
    assert.strictEqual(await runRetryWait(test, 1), 240_000);
    await runRetryWait(test, 2);
    assert.strictEqual(await test.outcome, undefined);
    assert.strictEqual(test.transport.requests.length, 3);
  });

  it('R7: Retry-After is read in seconds or as an HTTP date, waited at least 1 s and at most 5 minutes', async () => {
    const inFiveSeconds: Reply = () =>
      Promise.resolve({ status: 503, headers: { 'retry-after': new Date(clock.now + 5_000).toUTCString() }, body: '' });
    const test = await sendOne([inFiveSeconds, { status: 503, headers: { 'Retry-After': '0' } }, { status: 429, headers: { 'Retry-After': '3600' } }], {
      retryLimit: 1,
      retryHorizon: 3_600_000,
    });
    assert.strictEqual(await runRetryWait(test, 1), 5_000);
    assert.strictEqual(await runRetryWait(test, 2), 1_000);
    assert.strictEqual(await runRetryWait(test, 3), 300_000);
    assert.strictEqual(await test.outcome, undefined);
    assert.strictEqual(parseRetryAfterMs('soon', new Date()), undefined);
  });

  it('R8: without Retry-After, waits grow exponentially from about 1 s, spread over the retry horizon, with jitter', async () => {
    const test = await sendOne([{ status: 503 }, { status: 503 }, { status: 503 }]);
    const waits = [await runRetryWait(test, 1), await runRetryWait(test, 2), await runRetryWait(test, 3)];
    const ceilings = [1_000, 16_787, 281_815];
    waits.forEach((wait, i) => assert.ok(wait >= ceilings[i] / 2 - 1 && wait <= ceilings[i] + 1, `wait ${i + 1} is ${wait}, ceiling ${ceilings[i]}`));
    assert.strictEqual(await test.outcome, undefined);
    const always = (value: number) => () => value;
    const schedule = new BackoffSchedule(3, 300_000);
    assert.strictEqual([1, 2, 3].map((retry) => schedule.delayMs(retry, always(0.999999))).reduce((a, b) => a + b), 300_000, 'the ceilings add up to the horizon');
    assert.deepStrictEqual([1, 2].map((retry) => new BackoffSchedule(2, 1_000).delayMs(retry, always(0))), [250, 250], 'a short horizon starts below 1 s');
  });

  it('R9: a 400 naming events fails only those; the others are sent again at once', async () => {
    const { client, transport, errors } = createTestClient({ flushAt: 4 });
    const issues = ['batch[1].timestamp must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z', 'batch[3].properties.sku is not a known product'];
    transport.reply({ status: 400, body: JSON.stringify({ error: 'invalid_request', message: issues[0], issues }) });
    for (const event of ['a', 'b', 'c', 'd']) await client.track({ event, userId: 'u' });
    assert.deepStrictEqual(await client.flush().catch((error: Error) => error.message), '2 of 4 events were not delivered: HTTP 400: batch[1].timestamp must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z');
    assert.deepStrictEqual(transport.requests.map((request) => request.batch.map((message) => message.event)), [['a', 'b', 'c', 'd'], ['a', 'c']]);
    assert.deepStrictEqual(errors.map((error) => [error.reason, error.eventCount, error.statusCode]), [['rejected', 2, 400]]);
    assert.deepStrictEqual(client.getStats(), { queued: 0, inFlight: 0, delivered: 2, failed: 2, dropped: 0 });
  });

  for (const [status, body, detail] of [
    [400, '{"error":"invalid_request","message":"body must be a JSON object with a batch array"}', 'HTTP 400: body must be a JSON object with a batch array'],
    [401, '{"error":"unauthorized","message":"unknown or revoked API key"}', 'HTTP 401: unknown or revoked API key'],
    [403, '{"error":"forbidden","message":"workspace mismatch"}', 'HTTP 403: workspace mismatch'],
    [413, 'Payload Too Large', 'HTTP 413: Payload Too Large'],
  ] as const) {
    it(`R10: ${status} not naming events is not retried; the failure names the status and the server's message`, async () => {
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

  it('R11: after retryLimit retries the batch fails, and retryLimit 0 means a single attempt', async () => {
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

  it('R11: by default a failing batch is retried for minutes, not seconds', async () => {
    const failing: Reply = { networkError: 'connect ECONNREFUSED 127.0.0.1:443' };
    const test = await sendOne([failing, failing, failing, failing]);
    const started = clock.now;
    const error = await finish(test);
    const retriedForMs = clock.now - started;
    assert.match(String(error?.message), /^1 of 1 event was not delivered: connect ECONNREFUSED/);
    assert.ok(retriedForMs >= 150_000 && retriedForMs <= 300_000, `retried for ${retriedForMs} ms`);
  });

  it('R11: a batch also fails once its retry horizon has passed', async () => {
    const slow: Reply = { status: 503, headers: { 'Retry-After': '50' } };
    const test = await sendOne([slow, slow, slow, slow], { retryLimit: 3, retryHorizon: 120_000 });
    const started = clock.now;
    const error = await finish(test);
    assert.deepStrictEqual([test.transport.requests.length, clock.now - started], [4, 120_000], 'at 0, 50 and 100 s, and a last one at the horizon');
    assert.strictEqual(error?.message, '1 of 1 event was not delivered: HTTP 503 (retry horizon of 120000 ms passed)');
  });

  it('R12: a retry sends the same events with the same messageIds and a new sentAt', async () => {
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
