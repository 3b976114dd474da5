import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createAdReportService } from '../api/services/ad-report-service';
import { DEFAULT_FAKE_TIKTOK_SEED, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE, FAKE_TIKTOK_SECOND_ADVERTISER_ID } from '../devstack/tiktok-fake';
import type { Workspace } from '../db/repositories/workspaces';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';
import type { AdStatsPullSummary } from '../workflows/ad-stats-pull';
import { dayIn } from '../devstack/tiktok-fake/report/dates';
import { daysOf } from './helpers/days';
import { track } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let admin: FastifyInstance;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app: admin } = buildTestApp(pipeline.database.db, { repos: pipeline.repos }));
});
afterAll(async () => {
  await admin.close();
  await pipeline.close();
});

const RETARGETING_AD = '1820000000000000003';
const OUTLET = DEFAULT_FAKE_TIKTOK_SEED.advertisers?.find((a) => a.advertiserId === FAKE_TIKTOK_SECOND_ADVERTISER_ID);
const OUTLET_AD = OUTLET?.campaigns[0]?.adGroups[0]?.ads[0]?.adId as string;
const OUTLET_PIXEL = OUTLET?.pixels[0]?.pixelCode as string;
const DAY = 86_400_000;

function runPull(workspace: Workspace): Promise<AdStatsPullSummary> {
  return pipeline.client.workflow.execute('adStatsPullWorkflow', {
    taskQueue: pipeline.taskQueue,
    workflowId: `test-report-${randomBytes(6).toString('hex')}`,
    args: [{ workspaceId: workspace.id }],
  });
}

/** TikTok serves a click on the ad; the visitor lands at `at`; purchases follow for the same visitor, each delivered. */
async function clickAndBuy(ws: Workspace, adId: string, at: Date, orders: { total: number; currency: string; at?: Date }[]) {
  const click = await pipeline.fake.click(adId, at);
  const visitor = `visitor-${randomUUID()}`;
  await pipeline.ingest(ws, [{ type: 'page', messageId: randomUUID(), anonymousId: visitor, timestamp: at.toISOString(), context: { page: { url: click.landingUrl } } }]);
  for (const order of orders) {
    const [conversion] = await pipeline.ingest(ws, [
      track('purchase', { anonymousId: visitor }, { order_id: `order-${randomUUID()}`, total: order.total, currency: order.currency }, { timestamp: (order.at ?? new Date(at.getTime() + 60_000)).toISOString() }),
    ]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered', click_ad_id: adId });
  }
}

const reports = () => createAdReportService({ repos: pipeline.repos });

describe("reports in the advertiser's time zone", () => {
  it("read the zone and currency from TikTok's advertiser info, and put a delivered conversion on the advertiser's day, beside TikTok's", async () => {
    await pipeline.fake.registerToken({ accessToken: 'outlet-token', pixelCodes: [OUTLET_PIXEL], advertiserIds: [FAKE_TIKTOK_SECOND_ADVERTISER_ID] });
    const ws = await pipeline.workspace({ connected: false, rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: 'outlet-token', advertiserId: FAKE_TIKTOK_SECOND_ADVERTISER_ID, pixelCode: OUTLET_PIXEL });

    // 20:00 UTC yesterday is 05:00 the next day in Tokyo: the UTC day and the advertiser's day differ.
    const utcYesterday = dayIn(new Date(Date.now() - DAY), 'UTC');
    const boughtAt = new Date(`${utcYesterday}T20:00:00Z`);
    const tokyoDay = dayIn(boughtAt, 'Asia/Tokyo');
    expect(tokyoDay).not.toBe(utcYesterday);
    await clickAndBuy(ws, OUTLET_AD, new Date(`${utcYesterday}T19:30:00Z`), [{ total: 1500, currency: 'JPY', at: boughtAt }]);

    expect(await runPull(ws)).toMatchObject({ status: 'pulled' });
    expect(await pipeline.repos.tiktokConnections.summary(ws.id)).toMatchObject({ advertiserCurrency: 'JPY', advertiserTimeZone: 'Asia/Tokyo' });

    const daily = await reports().report(ws.id, { level: 'ad', from: utcYesterday, to: tokyoDay, granularity: 'day' });
    expect(daily).toMatchObject({ currency: 'JPY', timeZone: 'Asia/Tokyo', notes: [] });
    const rowsOfAd = daily.rows.filter((r) => r.entityId === OUTLET_AD);
    // One day carries both TikTok's conversion and Signalbox's delivery: the days agree.
    expect(rowsOfAd.filter((r) => r.conversions !== null && r.conversions > 0).map((r) => r.date)).toEqual([tokyoDay]);
    expect(rowsOfAd.filter((r) => r.deliveredConversions > 0).map((r) => [r.date, r.deliveredValue])).toEqual([[tokyoDay, '1500']]);
  });
});

describe('reports never add up different currencies', () => {
  it('show one ad’s 100 USD + 100 JPY + 100 EUR per currency, and convert only with the workspace’s exchange rates', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    await clickAndBuy(ws, RETARGETING_AD, new Date(Date.now() - 3_600_000), [
      { total: 100, currency: 'USD' },
      { total: 100, currency: 'JPY' },
      { total: 100, currency: 'EUR' },
    ]);
    expect(await runPull(ws)).toMatchObject({ status: 'pulled' });
    // The days the purchases happened on (the advertiser's zone is UTC), not "today": an hour before 00:30 is yesterday.
    const bought = await pipeline.database.db('conversions').where({ workspace_id: ws.id }).pluck('event_time');
    const range = { level: 'ad' as const, ...daysOf(bought) };

    const perCurrency = await reports().report(ws.id, range);
    const ad = perCurrency.rows.find((r) => r.entityId === RETARGETING_AD);
    expect(ad).toMatchObject({ deliveredConversions: 3, deliveredValues: { EUR: '100', JPY: '100', USD: '100' }, deliveredValue: null });
    expect(perCurrency.totals).toMatchObject({ deliveredConversions: 3, deliveredValues: { EUR: '100', JPY: '100', USD: '100' }, deliveredValue: null });
    expect(perCurrency.currency).toBe('USD');
    expect(perCurrency.notes).toEqual([expect.stringContaining('shown per currency, never summed: the workspace has no exchange rate into USD for EUR, JPY')]);

    const patched = await admin.inject({
      method: 'PATCH',
      url: `/admin/workspaces/${ws.id}/settings`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { exchangeRates: { eur: '1.1', JPY: 0.0065 } },
    });
    expect(patched.json()).toMatchObject({ exchangeRates: { EUR: '1.1', JPY: '0.0065' } });
    const converted = await reports().report(ws.id, range);
    expect(converted.rows.find((r) => r.entityId === RETARGETING_AD)).toMatchObject({ deliveredValues: { EUR: '100', JPY: '100', USD: '100' }, deliveredValue: '210.65' });
    expect(converted.totals.deliveredValue).toBe('210.65');
    expect(converted.notes).toEqual(["Delivered values in other currencies are converted into USD with the workspace's exchange rates."]);

    const refused = await admin.inject({
      method: 'PATCH',
      url: `/admin/workspaces/${ws.id}/settings`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { exchangeRates: { EUR: '-1', ABC: '2' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual(
      expect.arrayContaining([expect.stringMatching(/^exchangeRates\.EUR must be a positive decimal/), expect.stringMatching(/ISO 4217 currency code/)]),
    );
  });
});

describe('report columns as in Ads Manager', () => {
  it('add CPM, cost per conversion, conversion rate and readable statuses', async () => {
    const ws = await pipeline.workspace({ connected: false });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: 'x', advertiserId: '77', pixelCode: 'CX' });
    await pipeline.repos.adStats.upsertEntities(ws.id, [{ level: 'campaign', entityId: '901', advertiserId: '77', campaignId: null, adgroupId: null, name: 'Sale', status: 'CAMPAIGN_STATUS_DISABLE' }]);
    const day = (statDate: string, spend: string, impressions: number, clicks: number, conversions: number) => ({
      level: 'campaign' as const, entityId: '901', statDate, advertiserId: '77', campaignId: '901', adgroupId: null, spend, impressions, clicks, conversions, conversionValue: null,
    });
    await pipeline.repos.adStats.upsertDaily(ws.id, [day('2026-02-01', '0', 0, 0, 0), day('2026-02-02', '12.5', 2500, 50, 4)]);
    const report = await reports().report(ws.id, { level: 'campaign', from: '2026-02-01', to: '2026-02-02', granularity: 'day' });
    expect(report.rows.map((r) => [r.date, r.statusLabel, r.cpm, r.costPerConversion, r.conversionRate])).toEqual([
      ['2026-02-01', 'Paused', null, null, null],
      ['2026-02-02', 'Paused', '5', '3.125', '8'],
    ]);
    expect(report.rows[0]?.status).toBe('CAMPAIGN_STATUS_DISABLE');
  });

  it('answer the ad URL parameters of the closed loop from the settings API', async () => {
    const ws = await pipeline.workspace({ settings: { allowedOrigins: ['https://ferns.example'] } });
    const answer = await admin.inject({ method: 'GET', url: `/admin/workspaces/${ws.id}/tiktok/ad-url-parameters`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(answer.json()).toMatchObject({
      urlParameters: 'campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__',
      exampleLandingUrl: 'https://ferns.example/?campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__',
    });
    // The fake's ads carry exactly these parameters in their landing URLs, and their clicks close the loop above.
    expect(DEFAULT_FAKE_TIKTOK_SEED.advertisers?.[0]?.landingPageUrl).toContain(answer.json().urlParameters);
  });
});
