import fc from 'fast-check';
import { afterFailure, backoffMs, DEFAULT_DELIVERY_RETRY, deliveryDeadline, longestProbeWaitMs, probes, type BackoffState, type DeliveryRetryPolicy, type RetryClass } from './delivery-retry';

const policy: DeliveryRetryPolicy = { initialMs: { transient: 1_000, throttled: 5_000 }, maximumMs: { transient: 20_000, throttled: 300_000 }, horizonMs: 28 * 86_400_000 };
const noJitter = () => 0.5;

function failures(...classes: RetryClass[]): BackoffState {
  return classes.reduce<BackoffState>((state, failed) => afterFailure(state, failed), { retryClass: null, classFailures: 0 });
}
const repeated = (retryClass: RetryClass, n: number) => failures(...Array<RetryClass>(n).fill(retryClass));

describe('delivery backoff', () => {
  it('doubles within a class from its own first step', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(policy, repeated('transient', n), noJitter))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(policy, failures('throttled', 'throttled'), noJitter)).toBe(10_000);
  });

  it('starts a throttling answer after six 5xx at the throttling first step, not the seventh', () => {
    const state = failures('transient', 'transient', 'transient', 'transient', 'transient', 'transient', 'throttled');
    expect(state).toEqual({ retryClass: 'throttled', classFailures: 1 });
    expect(backoffMs(policy, state, noJitter)).toBe(5_000);
  });

  it('caps an outage at the probe interval and throttling at its own, longer cap', () => {
    expect(backoffMs(policy, repeated('transient', 30), noJitter)).toBe(20_000);
    expect(backoffMs(policy, repeated('throttled', 30), noJitter)).toBe(300_000);
  });

  it('jitters by at most a fifth either way', () => {
    const state = repeated('transient', 3);
    expect(backoffMs(policy, state, () => 0)).toBe(3_200);
    expect(backoffMs(policy, state, () => 1)).toBe(4_800);
  });

  it('waits nothing before the first failure', () => {
    expect(backoffMs(policy, { retryClass: null, classFailures: 0 }, noJitter)).toBe(0);
  });

  it('never waits longer than the probe interval with its jitter during an outage of any length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (outageFailures, random) => {
        const wait = backoffMs(policy, { retryClass: 'transient', classFailures: outageFailures }, () => random);
        return wait > 0 && wait <= longestProbeWaitMs(policy);
      }),
    );
    expect(longestProbeWaitMs(policy)).toBe(24_000);
  });

  it('probes only while TikTok fails transiently', () => {
    expect(probes({ retryClass: null, classFailures: 0 })).toBe(false);
    expect(probes(repeated('transient', 1))).toBe(true);
    expect(probes(repeated('transient', 40))).toBe(true);
    expect(probes(failures('transient', 'transient', 'throttled'))).toBe(false);
    expect(probes(failures('throttled', 'transient'))).toBe(true);
  });

  it('by default comes back within 60 s of an outage, with a probe that times out (10 s) on top', () => {
    expect(longestProbeWaitMs(DEFAULT_DELIVERY_RETRY) + 10_000).toBeLessThan(60_000);
    expect(DEFAULT_DELIVERY_RETRY.maximumMs.throttled).toBeGreaterThan(DEFAULT_DELIVERY_RETRY.maximumMs.transient);
  });

  it("ends a conversion's delivery at TikTok's horizon after its event time", () => {
    expect(deliveryDeadline(policy, new Date('2026-11-01T10:00:00Z'))).toEqual(new Date('2026-11-29T10:00:00Z'));
  });
});
