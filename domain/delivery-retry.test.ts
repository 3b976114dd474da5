import { afterFailure, backoffMs, deliveryDeadline, type BackoffState, type DeliveryRetryPolicy } from './delivery-retry';

const policy: DeliveryRetryPolicy = { initialMs: { transient: 1_000, throttled: 5_000 }, maximumMs: 300_000, horizonMs: 28 * 86_400_000 };
const noJitter = () => 0.5;

function failures(...classes: ('transient' | 'throttled')[]): BackoffState {
  return classes.reduce<BackoffState>((state, failed) => afterFailure(state, failed), { retryClass: null, classFailures: 0 });
}

describe('delivery backoff', () => {
  it('doubles within a class from its own first step', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(policy, failures(...Array<'transient'>(n).fill('transient')), noJitter))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(policy, failures('throttled', 'throttled'), noJitter)).toBe(10_000);
  });

  it('starts a throttling answer after six 5xx at the throttling first step, not the seventh', () => {
    const state = failures('transient', 'transient', 'transient', 'transient', 'transient', 'transient', 'throttled');
    expect(state).toEqual({ retryClass: 'throttled', classFailures: 1 });
    expect(backoffMs(policy, state, noJitter)).toBe(5_000);
  });

  it('caps the wait', () => {
    expect(backoffMs(policy, failures(...Array<'transient'>(30).fill('transient')), noJitter)).toBe(300_000);
  });

  it('jitters by at most a fifth either way', () => {
    const state = failures('transient', 'transient', 'transient');
    expect(backoffMs(policy, state, () => 0)).toBe(3_200);
    expect(backoffMs(policy, state, () => 1)).toBe(4_800);
  });

  it('waits nothing before the first failure', () => {
    expect(backoffMs(policy, { retryClass: null, classFailures: 0 }, noJitter)).toBe(0);
  });

  it("ends a conversion's delivery at TikTok's horizon after its event time", () => {
    expect(deliveryDeadline(policy, new Date('2026-11-01T10:00:00Z'))).toEqual(new Date('2026-11-29T10:00:00Z'));
  });
});
