import type { MetricValue } from 'prom-client';
import type { TikTokCallResult } from '../adplatform/tiktok';
import { createWorkerMetrics } from './metrics';

/** Each sample; histograms name theirs (`_bucket`, `_sum`, `_count`). */
async function valuesOf(metrics: ReturnType<typeof createWorkerMetrics>, name: string) {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  const values = (metric?.values ?? []) as (MetricValue<string> & { metricName?: string })[];
  return values.map(({ labels, value, metricName }) => ({ labels, value, ...(metricName && { metricName }) }));
}

function call(path: string, seconds: number, result: Partial<TikTokCallResult<unknown>> & Pick<TikTokCallResult<unknown>, 'outcome'>) {
  return { path, seconds, result: { message: '', ...result } as TikTokCallResult<unknown> };
}

describe('the worker metrics', () => {
  it('count conversions by status and reason, and observe the lag of each', async () => {
    const metrics = createWorkerMetrics();
    metrics.pipeline.conversionEnded({ status: 'delivered', reason: null, lagSeconds: 0.7 });
    metrics.pipeline.conversionEnded({ status: 'delivered', reason: null, lagSeconds: 3 });
    metrics.pipeline.conversionEnded({ status: 'skipped', reason: 'no_ttclid', lagSeconds: 0.2 });

    expect(await valuesOf(metrics, 'signalbox_conversion_outcomes_total')).toEqual([
      { labels: { status: 'delivered', reason: 'none' }, value: 2 },
      { labels: { status: 'skipped', reason: 'no_ttclid' }, value: 1 },
    ]);
    const lag = await valuesOf(metrics, 'signalbox_conversion_pipeline_lag_seconds');
    expect(lag).toContainEqual({ labels: { status: 'delivered', le: 1 }, value: 1, metricName: 'signalbox_conversion_pipeline_lag_seconds_bucket' });
    expect(lag).toContainEqual({ labels: { status: 'delivered', le: 5 }, value: 2, metricName: 'signalbox_conversion_pipeline_lag_seconds_bucket' });
    expect(lag).toContainEqual({ labels: { status: 'delivered' }, value: 3.7, metricName: 'signalbox_conversion_pipeline_lag_seconds_sum' });
  });

  it('count groups by outcome, retries by class and by step', async () => {
    const metrics = createWorkerMetrics();
    metrics.pipeline.groupProcessed('sent');
    metrics.pipeline.groupProcessed('backing_off');
    metrics.pipeline.groupProcessed('sent');
    metrics.pipeline.conversionsRetrying('throttled', 40);
    metrics.pipeline.stepRetried('deliver');

    expect(await valuesOf(metrics, 'signalbox_groups_processed_total')).toEqual([
      { labels: { outcome: 'sent' }, value: 2 },
      { labels: { outcome: 'backing_off' }, value: 1 },
    ]);
    expect(await valuesOf(metrics, 'signalbox_conversion_retries_total')).toEqual([{ labels: { retry_class: 'throttled' }, value: 40 }]);
    expect(await valuesOf(metrics, 'signalbox_group_step_retries_total')).toEqual([{ labels: { step: 'deliver' }, value: 1 }]);
  });

  it("count TikTok's answers by endpoint, code and outcome, and observe their durations", async () => {
    const metrics = createWorkerMetrics();
    const track = '/open_api/v1.3/event/track/';
    metrics.tiktokCall(call(track, 0.08, { outcome: 'success', code: 0, httpStatus: 200 }));
    metrics.tiktokCall(call(track, 0.3, { outcome: 'retryable', code: 40100, httpStatus: 200 }));
    metrics.tiktokCall(call(track, 0.02, { outcome: 'retryable', httpStatus: 502 }));
    metrics.tiktokCall(call(track, 10, { outcome: 'retryable' }));

    expect(await valuesOf(metrics, 'signalbox_tiktok_responses_total')).toEqual([
      { labels: { endpoint: track, code: '0', outcome: 'success' }, value: 1 },
      { labels: { endpoint: track, code: '40100', outcome: 'retryable' }, value: 1 },
      { labels: { endpoint: track, code: 'http_502', outcome: 'retryable' }, value: 1 },
      { labels: { endpoint: track, code: 'none', outcome: 'retryable' }, value: 1 },
    ]);
    const durations = await valuesOf(metrics, 'signalbox_tiktok_request_duration_seconds');
    expect(durations).toContainEqual({ labels: { endpoint: track, le: 0.1 }, value: 2, metricName: 'signalbox_tiktok_request_duration_seconds_bucket' });
    expect(durations).toContainEqual({ labels: { endpoint: track }, value: 4, metricName: 'signalbox_tiktok_request_duration_seconds_count' });
  });

  it('keep to their own registry, with the process metrics, so that two never clash', async () => {
    const [first, second] = [createWorkerMetrics(), createWorkerMetrics()];
    first.pipeline.groupProcessed('sent');
    expect(await valuesOf(second, 'signalbox_groups_processed_total')).toEqual([]);
    expect(await first.registry.metrics()).toMatch(/^process_cpu_seconds_total \d/m);
  });
});
