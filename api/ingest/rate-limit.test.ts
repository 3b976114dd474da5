import { HttpError } from '../http/http-error';
import { createRateLimiter } from './rate-limit';

/** Sends `count` requests for one workspace, evenly spaced at `perSecond` on the limiter's clock; returns how many passed. */
function sendEvenly(settings: { perSecond: number; burst: number }, perSecond: number, count: number, workspaceId = 'ws_a') {
  let now = 0;
  const limiter = createRateLimiter(settings, () => now);
  let passed = 0;
  for (let i = 0; i < count; i += 1) {
    now = (i * 1000) / perSecond;
    try {
      limiter.take(workspaceId);
      passed += 1;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 429) throw error;
    }
  }
  return passed;
}

const SPEC = { perSecond: 1_000, burst: 1_000 };

describe('ingest rate limiter', () => {
  it('lets a steady 1,000 requests per second through, for a second and for 30 seconds', () => {
    expect(sendEvenly(SPEC, 1_000, 1_000)).toBe(1_000);
    expect(sendEvenly(SPEC, 1_000, 30_000)).toBe(30_000);
  });

  it('lets a burst of up to 1,000 more through at once, and limits beyond it', () => {
    let now = 0;
    const limiter = createRateLimiter(SPEC, () => now);
    for (let i = 0; i < 1_000; i += 1) limiter.take('ws_a');
    expect(() => limiter.take('ws_a')).toThrow(HttpError);
    now = 10; // 10 ms later: ten requests' worth refilled
    for (let i = 0; i < 10; i += 1) limiter.take('ws_a');
    expect(() => limiter.take('ws_a')).toThrow(HttpError);
  });

  it('limits a sustained rate above 1,000 per second to about 1,000 per second once the burst is spent', () => {
    const passed = sendEvenly(SPEC, 1_500, 45_000); // 30 s at 1,500/s
    expect(passed).toBeGreaterThanOrEqual(30_000 + 1_000 - 1);
    expect(passed).toBeLessThanOrEqual(30_000 + 1_000 + 1);
  });

  it('keeps each workspace to its own bucket', () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 1, burst: 1 }, () => now);
    limiter.take('ws_a');
    limiter.take('ws_b');
    expect(() => limiter.take('ws_a')).toThrow(HttpError);
    now = 1_000;
    limiter.take('ws_a');
  });

  it('answers 429 with Retry-After: the seconds until the next request may pass', () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 0.25, burst: 1 }, () => now);
    limiter.take('ws_a');
    now = 1_000;
    const refused = (() => {
      try {
        limiter.take('ws_a');
      } catch (error) {
        return error as HttpError;
      }
      throw new Error('not refused');
    })();
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', headers: { 'retry-after': '3' } });
    expect(refused.message).toBe('this workspace sent more than 0.25 requests per second (bursts up to 1 more); retry in 3 seconds');
  });
});
