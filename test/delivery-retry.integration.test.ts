import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { ConversionRow } from '../db/types';
import { DEFAULT_DELIVERY_RETRY } from '../domain/delivery-retry';
import { createConversionRetryService } from '../api/services/conversion-retry';
import { createTikTokServices } from '../api/services/tiktok-services';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

/**
 * Time compressed 300 times: TikTok's 30-minute outage lasts 6 s, the backoff starts at 1 s / 300 and is capped at
 * 5 minutes / 300 = 1 s. TikTok's 28-day horizon stays as it is.
 */
const COMPRESSION = 300;
const OUTAGE_MS = (30 * 60_000) / COMPRESSION;
const retry = {
  ...DEFAULT_DELIVERY_RETRY,
  initialMs: { transient: Math.ceil(1_000 / COMPRESSION), throttled: Math.ceil(5_000 / COMPRESSION) },
  maximumMs: (5 * 60_000) / COMPRESSION,
};

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start({ pipeline: { retry } });
});
afterAll(() => pipeline.close());
afterEach(() => pipeline.fake.clearFaults());

type Workspace = Awaited<ReturnType<TestPipeline['workspace']>>;

const retryService = () => createConversionRetryService({ db: pipeline.database.db, repos: pipeline.repos, pipelines: pipeline.waker });

async function purchase(ws: Workspace, orderId: string, at = new Date(), clickedAt = daysAgo(1, at)): Promise<ConversionRow> {
  await pipeline.ingest(ws, [landing(`visitor-${orderId}`, ttclid(), clickedAt)]);
  const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: `visitor-${orderId}` }, { order_id: orderId, total: 5, currency: 'USD' }, { timestamp: at.toISOString() })]);
  return conversion as ConversionRow;
}

async function accepted(eventId: string) {
  const { events } = await pipeline.fake.receivedEvents();
  return events.filter((e) => e.eventId === eventId);
}

describe('delivery through a long TikTok outage', () => {
  it('keeps retrying through a compressed 30-minute outage and delivers every conversion once after it', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, httpStatus: 503, times: 100_000 }]);
    const outageEnds = Date.now() + OUTAGE_MS;
    const before = await Promise.all(['outage-1', 'outage-2', 'outage-3'].map((id) => purchase(ws, id)));
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS / 2));
    const during = await Promise.all(['outage-4', 'outage-5'].map((id) => purchase(ws, id)));
    await new Promise((resolve) => setTimeout(resolve, outageEnds - Date.now()));
    expect((await pipeline.repos.conversions.find(before[0]!.id))?.status).toBe('pending');
    await pipeline.fake.clearFaults();

    // Still pending after the whole outage, then delivered: a transient failure never ends a conversion before TikTok's
    // event-time horizon.
    const settled = await Promise.all([...before, ...during].map((c) => pipeline.settled(c)));
    expect(settled.map((c) => c.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
    expect(settled[0]!.attempts).toBeGreaterThan(1);
    for (const conversion of settled) {
      const events = await accepted(conversion.event_id);
      expect(events).toHaveLength(1);
      expect(events[0]?.deduplicated).toBe(false);
    }
    const { requests } = await pipeline.fake.receivedEvents();
    const failedSends = requests.filter((r) => r.rawBody.includes('"outage-1"') && r.answer?.httpStatus === 503);
    expect(failedSends.length).toBe(settled[0]!.attempts - 1);
  });

  it('retries gateway errors and throttling alike until TikTok accepts', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.fake.injectFaults([
      { path: EVENT_TRACK_PATH, httpStatus: 502, times: 6 },
      { path: EVENT_TRACK_PATH, code: 40100 },
    ]);
    const conversion = await purchase(ws, 'throttled-after-5xx');
    expect(await pipeline.settled(conversion)).toMatchObject({ status: 'delivered', attempts: 8 });
    const attempts = (await pipeline.repos.conversionHistory.list(conversion.id)).filter((h) => h.step === 'delivery_attempt');
    expect(attempts.map((a) => a.detail.code ?? a.detail.httpStatus)).toEqual([502, 502, 502, 502, 502, 502, 40100, 0]);
    expect(await pipeline.repos.conversionPipelines.find(ws.id)).toMatchObject({ retry_class: null, class_failures: 0, resume_at: null });
  });
});

describe("TikTok's event-time horizon", () => {
  it('does not send a conversion that could no longer count, and says why', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { attributionWindowDays: 60 } });
    const conversion = await purchase(ws, 'too-old', daysAgo(29), daysAgo(30));
    expect(await pipeline.settled(conversion)).toMatchObject({ status: 'skipped', reason: 'expired', attempts: 0 });
    expect(await accepted('too-old')).toEqual([]);
  });

  it('stops retrying at the horizon: the conversion ends failed, expired', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { attributionWindowDays: 60 } });
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 50000, times: 100_000 }]);
    const almostTooOld = new Date(Date.now() - DEFAULT_DELIVERY_RETRY.horizonMs + 3_000);
    const conversion = await purchase(ws, 'expires-while-retrying', almostTooOld, daysAgo(1, almostTooOld));
    const settled = await pipeline.settled(conversion);
    expect(settled).toMatchObject({ status: 'failed', reason: 'expired', tiktok_code: 50000 });
    expect(settled.attempts).toBeGreaterThan(1);
  });
});

describe('sending failed conversions again', () => {
  async function failedConversions(ws: Workspace, prefix: string, count: number): Promise<ConversionRow[]> {
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40001, times: count }]);
    const conversions = [];
    for (let i = 0; i < count; i++) conversions.push(await pipeline.settled(await purchase(ws, `${prefix}-${i}`)));
    expect(conversions.every((c) => c.status === 'failed' && c.reason === 'tiktok_rejected' && c.tiktok_code === 40001)).toBe(true);
    return conversions;
  }

  it('by ID: only that one, recorded in its timeline and the change log; asking again changes nothing', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const [first, second] = await failedConversions(ws, 'retry-id', 2);

    const result = await retryService().retry(ws.id, { conversionIds: [first!.id] }, 'user:ops-1');
    expect(result).toEqual({ requeued: [first!.id], woken: true });
    expect(await pipeline.settled(first!)).toMatchObject({ status: 'delivered', tiktok_code: 0, attempts: 2 });
    expect(await pipeline.repos.conversions.find(second!.id)).toMatchObject({ status: 'failed' });
    expect(await accepted('retry-id-0')).toHaveLength(1);

    const steps = (await pipeline.repos.conversionHistory.list(first!.id)).map((h) => [h.step, h.detail]);
    expect(steps).toContainEqual(['retry_requested', { by: 'user:ops-1' }]);
    expect(steps.at(-1)).toEqual(['outcome', { status: 'delivered', reason: null }]);
    const log = await pipeline.repos.changeLog.list(ws.id, { limit: 10 });
    expect(log).toEqual([expect.objectContaining({ actor: 'user:ops-1', action: 'conversions.retry', after: { conversionIds: [first!.id], requeued: 1 } })]);

    expect(await retryService().retry(ws.id, { conversionIds: [first!.id] }, 'user:ops-1')).toEqual({ requeued: [], woken: false });
    expect(await pipeline.repos.changeLog.list(ws.id, { limit: 10 })).toHaveLength(1);
    expect(await accepted('retry-id-0')).toHaveLength(1);
  });

  it('by filter: every failed conversion with that reason', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const failed = await failedConversions(ws, 'retry-filter', 3);
    const delivered = await pipeline.settled(await purchase(ws, 'retry-filter-ok'));

    const result = await retryService().retry(ws.id, { status: 'failed', reason: 'tiktok_rejected', tiktokEvent: 'CompletePayment' }, 'operator');
    expect(result.requeued.sort()).toEqual(failed.map((c) => c.id).sort());
    const settled = await Promise.all(failed.map((c) => pipeline.settled(c)));
    expect(settled.every((c) => c.status === 'delivered')).toBe(true);
    expect(await pipeline.repos.conversions.find(delivered.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await accepted('retry-filter-ok')).toHaveLength(1);
  });

  it('when TikTok is reconnected: those refused for the token, and those held back since', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40105, message: 'Access token is incorrect or has been revoked.' }]);
    const refused = await pipeline.settled(await purchase(ws, 'reconnect-refused'));
    expect(refused).toMatchObject({ status: 'failed', tiktok_code: 40105 });
    const heldBack = await pipeline.settled(await purchase(ws, 'reconnect-held-back'));
    expect(heldBack).toMatchObject({ status: 'skipped', reason: 'tiktok_reauthorization_required' });

    const services = createTikTokServices({
      db: pipeline.database.db,
      repos: pipeline.repos,
      tiktok: pipeline.deps.tiktok,
      oauth: { authUrl: `${pipeline.fake.url}/portal/auth` },
      secretKey: '5e'.repeat(32),
      schedules: pipeline.adStatsSchedules,
      conversionRetry: retryService(),
    });
    await services.connections.connectManually(ws.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });

    expect(await pipeline.settled(refused)).toMatchObject({ status: 'delivered', tiktok_code: 0 });
    expect(await pipeline.settled(heldBack)).toMatchObject({ status: 'delivered', tiktok_code: 0 });
    expect(await accepted('reconnect-refused')).toHaveLength(1);
    expect(await accepted('reconnect-held-back')).toHaveLength(1);
    expect(await pipeline.repos.changeLog.list(ws.id, { limit: 10 })).toContainEqual(
      expect.objectContaining({ actor: 'system', action: 'conversions.retry', after: { refusedToken: true, requeued: 2 } }),
    );
  });
});
