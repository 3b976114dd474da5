import { randomBytes } from 'node:crypto';
import { DEFAULT_PULL_RETRY } from '../adplatform/ad-stats';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { longestProbeWaitMs } from '../domain/delivery-retry';
import type { AdStatsPullSummary } from '../workflows/ad-stats-pull';
import { TestPipeline } from './helpers/pipeline';
import { mostRequestsDuring, TENTH_SCALE_RETRY } from './helpers/tiktok-outage';

// An outage of half a minute, then the pull: longer than jest's 5 s default.
jest.setTimeout(180_000);

const retry = TENTH_SCALE_RETRY;
/** The first attempt's in-call retries (about 7 s), then long enough for the waits to reach the probe interval and stay there. */
const OUTAGE_MS = 25_000;
/** A busy two-core machine: scheduling the retried activity, then the whole pull (30 days at three levels). */
const SLACK_MS = 15_000;
/** Temporal scheduling an activity's next attempt and the attempt reaching TikTok, on a busy machine. */
const ATTEMPT_SLACK_MS = 8_000;

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start({ pipeline: { retry } });
});
afterAll(() => pipeline.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe('statistics pull through a long TikTok outage', () => {
  it('retries one probe per interval and completes within an interval of TikTok answering again', async () => {
    const ws = await pipeline.workspace({ connected: false });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    await pipeline.fake.injectFaults([{ httpStatus: 503, times: 100_000 }]);
    const outageStarts = Date.now();
    const handle = await pipeline.client.workflow.start('adStatsPullWorkflow', {
      taskQueue: pipeline.taskQueue,
      workflowId: `test-ad-stats-outage-${randomBytes(6).toString('hex')}`,
      args: [{ workspaceId: ws.id }],
    });
    await sleep(OUTAGE_MS);
    const recoveredAt = Date.now();
    await pipeline.fake.clearFaults();

    const summary: AdStatsPullSummary = await handle.result();
    expect(summary).toMatchObject({ status: 'pulled', reason: null, rows: 30 * (2 + 3 + 4) });
    const { closeTime } = await handle.describe();
    // Done within one probe interval (with its jitter) of TikTok answering again, measured on the server's timestamps.
    expect(closeTime!.getTime() - recoveredAt).toBeLessThanOrEqual(longestProbeWaitMs(retry) + SLACK_MS);

    // Tried again and again, never more than a probe interval apart (plus scheduling the attempt), at a bounded cost.
    const failed = (await pipeline.fake.receivedEvents()).requests.filter((r) => r.answer?.httpStatus === 503);
    const triedAt = [...failed.map((r) => Date.parse(r.receivedAt)), recoveredAt];
    const gaps = triedAt.slice(1).map((at, i) => at - (triedAt[i] as number));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(longestProbeWaitMs(retry) + ATTEMPT_SLACK_MS);
    expect(failed.length).toBeGreaterThan(DEFAULT_PULL_RETRY.attempts + 2);
    expect(failed.length).toBeLessThanOrEqual(mostRequestsDuring(retry, recoveredAt - outageStarts, DEFAULT_PULL_RETRY.attempts));
    expect(await pipeline.repos.tiktokConnections.summary(ws.id)).toMatchObject({ statsPullError: null });
  });

  it('ends a pull that keeps failing for a reason of its own, with its error recorded for the console', async () => {
    const ws = await pipeline.workspace({ connected: false });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    // TikTok answers; PostgreSQL refuses this workspace's statistics rows: neither TikTok's failure nor an outage.
    const { db } = pipeline.database;
    await db.raw(`CREATE FUNCTION refuse_statistics() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'statistics rows refused by a test trigger'; END $$`);
    await db.raw(`CREATE TRIGGER refuse_statistics BEFORE INSERT ON ad_stats_daily FOR EACH ROW WHEN (NEW.workspace_id = '${ws.id}') EXECUTE FUNCTION refuse_statistics()`);
    const handle = await pipeline.client.workflow.start('adStatsPullWorkflow', {
      taskQueue: pipeline.taskQueue,
      workflowId: `test-ad-stats-failing-${randomBytes(6).toString('hex')}`,
      args: [{ workspaceId: ws.id }],
    });

    await expect(handle.result()).rejects.toMatchObject({ cause: { message: expect.stringMatching(/statistics rows refused by a test trigger/) } });
    const connection = await pipeline.repos.tiktokConnections.summary(ws.id);
    expect(connection?.statsPullError).toMatch(/^the statistics pull failed 5 times: .*statistics rows refused by a test trigger/);
  });
});
