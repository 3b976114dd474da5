import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { ConversionRow } from '../db/types';
import { DEFAULT_DELIVERY_RETRY, longestProbeWaitMs } from '../domain/delivery-retry';
import { createConversionRetryService } from '../api/services/conversion-retry';
import { createTikTokServices } from '../api/services/tiktok-services';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { mostRequestsDuring, TENTH_SCALE_RETRY } from './helpers/tiktok-outage';

const retry = TENTH_SCALE_RETRY;
/** Long enough for the waits to reach the probe interval and stay there for several probes. */
const OUTAGE_MS = 15_000;
/** A busy two-core machine: waking the workflow, claiming the group, the probe and the group's request. */
const SLACK_MS = 10_000;

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start({ pipeline: { retry } });
});
afterAll(() => pipeline.close());
afterEach(() => pipeline.fake.clearFaults());

type Workspace = Awaited<ReturnType<TestPipeline['workspace']>>;

const retryService = () => createConversionRetryService({ db: pipeline.database.db, repos: pipeline.repos, pipelines: pipeline.waker });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

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
  it('probes once per interval through the outage and delivers every waiting conversion within an interval of TikTok answering again', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, httpStatus: 503, times: 100_000 }]);
    const outageStarts = Date.now();
    const before = await Promise.all(['outage-1', 'outage-2', 'outage-3'].map((id) => purchase(ws, id)));
    await sleep(OUTAGE_MS / 2);
    const during = await Promise.all(['outage-4', 'outage-5'].map((id) => purchase(ws, id)));
    await sleep(outageStarts + OUTAGE_MS - Date.now());
    expect(await pipeline.repos.conversionPipelines.find(ws.id)).toMatchObject({ retry_class: 'transient' });
    const recoveredAt = Date.now();
    await pipeline.fake.clearFaults();

    const settled = await Promise.all([...before, ...during].map((c) => pipeline.settled(c)));
    expect(settled.map((c) => c.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
    const { requests } = await pipeline.fake.receivedEvents();
    const ours = requests.filter((r) => r.path === EVENT_TRACK_PATH && r.rawBody.includes('"outage-'));
    const eventsIn = (r: (typeof ours)[number]) => (JSON.parse(r.rawBody) as { data: unknown[] }).data.length;
    const failed = ours.filter((r) => r.answer?.httpStatus === 503);
    const answered = ours.filter((r) => r.answer?.code === 0);

    // Back within one probe interval (with its jitter) of TikTok answering again, measured on the fake's receipts.
    const deliveredAt = Math.max(...answered.map((r) => Date.parse(r.receivedAt)));
    expect(deliveredAt - recoveredAt).toBeLessThanOrEqual(longestProbeWaitMs(retry) + SLACK_MS);
    // The probe, answered, then everything waiting at once in one request.
    expect(answered.map(eventsIn)).toEqual([1, 4]);
    // During the outage, after the first attempt: one probe of one event per interval, never the whole backlog.
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(failed.length).toBeLessThanOrEqual(mostRequestsDuring(retry, recoveredAt - outageStarts, 1));
    expect(failed.slice(1).map(eventsIn)).toEqual(failed.slice(1).map(() => 1));

    for (const conversion of settled) {
      // Attempts and timeline count the requests that carried the conversion, no more; TikTok counts it once.
      const carried = ours.filter((r) => r.rawBody.includes(`"${conversion.event_id}"`)).length;
      expect(conversion.attempts).toBe(carried);
      const history = await pipeline.repos.conversionHistory.list(conversion.id);
      expect(history.filter((h) => h.step === 'delivery_attempt')).toHaveLength(carried);
      const events = await accepted(conversion.event_id);
      expect(events).toHaveLength(1);
      expect(events[0]?.deduplicated).toBe(false);
    }
    // One conversion carried every probe; the others waited unsent.
    expect(Math.max(...settled.map((c) => c.attempts))).toBeGreaterThanOrEqual(failed.length);
    expect(await pipeline.repos.conversionPipelines.find(ws.id)).toMatchObject({ retry_class: null, class_failures: 0, resume_at: null });
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
