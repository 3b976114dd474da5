import type { MetricValue } from 'prom-client';
import { createWorkerMetrics } from '../../worker/metrics';
import { addOutcomes, countEnded, noOutcomes } from './outcomes';

describe("a group's outcomes", () => {
  it('are counted by status and reason, in the tally and in the metrics, with the lag from each creation', async () => {
    const metrics = createWorkerMetrics();
    const outcomes = noOutcomes();
    const minuteAgo = new Date(Date.now() - 60_000);
    countEnded(metrics.pipeline, outcomes, [
      { status: 'delivered', reason: null, createdAt: minuteAgo },
      { status: 'delivered', reason: 'test_mode', createdAt: minuteAgo },
      { status: 'skipped', reason: 'no_ttclid', createdAt: minuteAgo },
      { status: 'skipped', reason: 'no_ttclid', createdAt: minuteAgo },
      { status: 'failed', reason: 'tiktok_rejected', createdAt: minuteAgo },
    ]);

    expect(outcomes).toEqual({ delivered: 2, skipped: { no_ttclid: 2 }, failed: { tiktok_rejected: 1 } });
    const counted = await metrics.registry.getSingleMetric('signalbox_conversion_outcomes_total')?.get();
    expect(counted?.values.map(({ labels, value }) => [labels.status, labels.reason, value])).toEqual([
      ['delivered', 'none', 1],
      ['delivered', 'test_mode', 1],
      ['skipped', 'no_ttclid', 2],
      ['failed', 'tiktok_rejected', 1],
    ]);
    const lag = await metrics.registry.getSingleMetric('signalbox_conversion_pipeline_lag_seconds')?.get();
    const sum = (lag?.values as (MetricValue<string> & { metricName: string })[]).find((value) => value.metricName.endsWith('_sum') && value.labels.status === 'skipped')?.value;
    expect(sum).toBeGreaterThanOrEqual(120);
    expect(sum).toBeLessThan(130);
  });

  it('of preparation and delivery add up', () => {
    const prepared = { delivered: 0, skipped: { no_ttclid: 2, expired: 1 }, failed: { internal_error: 1 } };
    const delivered = { delivered: 5, skipped: {}, failed: { internal_error: 1, tiktok_rejected: 2 } };
    expect(addOutcomes(prepared, delivered)).toEqual({ delivered: 5, skipped: { no_ttclid: 2, expired: 1 }, failed: { internal_error: 2, tiktok_rejected: 2 } });
  });
});
