import { randomBytes } from 'node:crypto';
import { pullReportRange, type AdStatsPullContext } from '../adplatform/ad-stats';
import { createAdReportService } from '../api/services/ad-report-service';
import { createTikTokClient } from '../adplatform/tiktok';
import { createOAuthStateSigner, createTestConversionSender, createTikTokConnectionService, TikTokConnectionError, type TikTokConnectionService } from '../api/services/tiktok-connection';
import {
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_ADVERTISER_ID,
  FAKE_TIKTOK_APP_ID,
  FAKE_TIKTOK_APP_SECRET,
  FAKE_TIKTOK_PIXEL_CODE,
  FAKE_TIKTOK_SECOND_ADVERTISER_ID,
  REPORT_INTEGRATED_PATH,
} from '../devstack/tiktok-fake';
import type { Workspace } from '../db/repositories/workspaces';
import { daysIn } from '../domain/report-window';
import type { AdStatsPullSummary } from '../workflows/ad-stats-pull';
import { dayIn } from '../devstack/tiktok-fake/report/dates';
import { track } from './helpers/messages';
import { TEST_SECRET_KEY, TestPipeline } from './helpers/pipeline';

// Pipeline start and Temporal runs outlast jest's 5 s default (the project-level testTimeout is not applied to hooks here).
jest.setTimeout(120_000);

let pipeline: TestPipeline;
let connections: TikTokConnectionService;
const REDIRECT_URI = 'https://signalbox.example/admin/tiktok/callback';
const SPRING_SALE = '1800000000000000001';
const RETARGETING_AD = '1820000000000000003';

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  connections = createTikTokConnectionService({
    repos: pipeline.repos,
    tiktok: createTikTokClient({ baseUrl: pipeline.fake.url }),
    oauth: { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET, redirectUri: REDIRECT_URI, authUrl: `${pipeline.fake.url}/portal/auth` },
    states: createOAuthStateSigner(TEST_SECRET_KEY),
    schedules: pipeline.adStatsSchedules,
    transaction: (work) => pipeline.database.db.transaction(work),
  });
});
afterAll(() => pipeline.close());

/** What the owner's browser does: open the authorization URL, follow TikTok's redirect back to the callback. */
async function authorizeInBrowser(workspace: Workspace): Promise<{ authCode: string; state: string }> {
  const { url } = await connections.authorizationUrl(workspace.id);
  const response = await fetch(url, { redirect: 'manual' });
  const callback = new URL(response.headers.get('location') as string);
  expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
  return { authCode: callback.searchParams.get('auth_code') as string, state: callback.searchParams.get('state') as string };
}

async function failureCode(action: Promise<unknown>): Promise<string> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TikTokConnectionError)) throw new Error(`expected a TikTokConnectionError, got ${String(error)}`);
  return error.code;
}

function runPull(workspace: Workspace): Promise<AdStatsPullSummary> {
  return pipeline.client.workflow.execute('adStatsPullWorkflow', {
    taskQueue: pipeline.taskQueue,
    workflowId: `test-ad-stats-${randomBytes(6).toString('hex')}`,
    args: [{ workspaceId: workspace.id }],
  });
}

describe('OAuth connection', () => {
  it('connects: URL → callback → advertisers → advertiser (schedule appears) → pixel; disconnect removes token and schedule', async () => {
    const ws = await pipeline.workspace({ connected: false });
    const callback = await authorizeInBrowser(ws);
    const connected = await connections.completeAuthorization(ws.id, callback);
    expect(connected).toMatchObject({ source: 'oauth', status: 'active', advertiserId: null, missingPermissions: [], nextStep: 'select_advertiser' });
    expect(connected.grantedScopes).toEqual(expect.arrayContaining(['4', '5', '8']));
    const row = await pipeline.database.db('tiktok_connections').where({ workspace_id: ws.id }).first();
    expect(row?.access_token_ciphertext).toMatch(/^v1\./);
    expect(await pipeline.adStatsSchedules.describe(ws.id)).toBeUndefined();

    expect(await connections.listAdvertisers(ws.id)).toEqual([
      { advertiserId: FAKE_TIKTOK_ADVERTISER_ID, advertiserName: 'Signalbox Dev Shop' },
      { advertiserId: FAKE_TIKTOK_SECOND_ADVERTISER_ID, advertiserName: 'Signalbox Dev Outlet' },
    ]);
    expect(await failureCode(connections.selectAdvertiser(ws.id, '1234567890123456789'))).toBe('advertiser_not_accessible');
    expect(await connections.selectAdvertiser(ws.id, FAKE_TIKTOK_ADVERTISER_ID)).toMatchObject({ advertiserId: FAKE_TIKTOK_ADVERTISER_ID, nextStep: 'select_pixel' });
    expect(await pipeline.adStatsSchedules.describe(ws.id)).toMatchObject({ scheduleId: `signalbox-ad-stats-${ws.id}`, paused: false });

    expect((await connections.listPixels(ws.id)).map((p) => p.pixelCode)).toEqual([FAKE_TIKTOK_PIXEL_CODE, 'CSIGNALBOXDEVPIXEL02']);
    expect(await failureCode(connections.selectPixel(ws.id, 'CSIGNALBOXOUTLETPX01'))).toBe('pixel_not_found');
    expect(await connections.selectPixel(ws.id, FAKE_TIKTOK_PIXEL_CODE)).toMatchObject({ pixelCode: FAKE_TIKTOK_PIXEL_CODE, nextStep: null });

    // Reconnecting keeps the choice and updates the one schedule rather than making another.
    expect(await connections.completeAuthorization(ws.id, await authorizeInBrowser(ws))).toMatchObject({ advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const schedules = [];
    for await (const schedule of pipeline.client.schedule.list()) if (schedule.scheduleId === `signalbox-ad-stats-${ws.id}`) schedules.push(schedule);
    expect(schedules).toHaveLength(1);

    expect(await connections.disconnect(ws.id)).toBe(true);
    expect(await pipeline.repos.tiktokConnections.summary(ws.id)).toBeUndefined();
    expect(await pipeline.adStatsSchedules.describe(ws.id)).toBeUndefined();
  });

  it('refuses a reused state, a state of another workspace, a bad or reused auth_code, and a grant missing a permission', async () => {
    const ws = await pipeline.workspace({ connected: false });
    const other = await pipeline.workspace({ connected: false });
    const callback = await authorizeInBrowser(ws);
    await connections.completeAuthorization(ws.id, callback);
    expect(await failureCode(connections.completeAuthorization(ws.id, callback))).toBe('state_reused');
    expect(await failureCode(connections.completeAuthorization(other.id, await authorizeInBrowser(ws)))).toBe('state_workspace_mismatch');

    const { state } = await connections.authorizationUrl(ws.id);
    expect(await failureCode(connections.completeAuthorization(ws.id, { authCode: 'not-a-code', state }))).toBe('auth_code_rejected');
    const { state: fresh } = await connections.authorizationUrl(ws.id);
    expect(await failureCode(connections.completeAuthorization(ws.id, { authCode: callback.authCode, state: fresh }))).toBe('auth_code_rejected');

    const narrow = await pipeline.fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID, scopes: ['1', '4', '8'] });
    const { state: third } = await connections.authorizationUrl(other.id);
    const error = await connections.completeAuthorization(other.id, { authCode: narrow, state: third }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TikTokConnectionError);
    expect(error).toMatchObject({ code: 'missing_permissions', httpStatus: 400, details: { missing: ['send_conversion_events'] } });
    expect((error as Error).message).toContain('send_conversion_events');
    expect(await pipeline.repos.tiktokConnections.summary(other.id)).toBeUndefined();
  });

  it('reports that OAuth is unavailable when the app is not configured', async () => {
    const unconfigured = createTikTokConnectionService({
      repos: pipeline.repos,
      tiktok: createTikTokClient({ baseUrl: pipeline.fake.url }),
      oauth: { authUrl: 'https://business-api.tiktok.com/portal/auth' },
      states: createOAuthStateSigner(TEST_SECRET_KEY),
      schedules: pipeline.adStatsSchedules,
      transaction: (work) => pipeline.database.db.transaction(work),
    });
    const error = await unconfigured.authorizationUrl('ws_any').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'oauth_not_configured', message: expect.stringContaining('TIKTOK_APP_ID, TIKTOK_APP_SECRET, TIKTOK_OAUTH_REDIRECT_URI') });
  });
});

describe('statistics pull and figures', () => {
  it('closes the loop: fake click → page view → purchase delivered → TikTok counts it → pulled → beside Signalbox delivery', async () => {
    const ws = await pipeline.workspace({ connected: false, rules: [{ sourceEvent: 'purchase' }] });
    await connections.connectManually(ws.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    expect(await pipeline.adStatsSchedules.describe(ws.id)).toMatchObject({ paused: false });

    const click = await pipeline.fake.click(RETARGETING_AD);
    await pipeline.ingest(ws, [{ type: 'page', messageId: randomBytes(8).toString('hex'), anonymousId: 'loop-visitor', timestamp: new Date().toISOString(), context: { page: { url: click.landingUrl } } }]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'loop-visitor' }, { order_id: `loop-${ws.id}`, total: 129.9, currency: 'USD' })]);
    const settled = await pipeline.settled(conversion!);
    expect(settled).toMatchObject({
      status: 'delivered',
      ttclid: click.ttclid,
      click_campaign_id: SPRING_SALE,
      click_adgroup_id: '1810000000000000002',
      click_ad_id: RETARGETING_AD,
    });

    const summary = await runPull(ws);
    expect(summary).toMatchObject({ status: 'pulled', reason: null });
    // The workspace's 30-day attribution window is longer than the 28-day minimum: 30 days × (2 campaigns, 3 ad groups, 4 ads).
    expect(summary.window && daysIn(summary.window)).toBe(30);
    expect(summary.rows).toBe(30 * (2 + 3 + 4));
    // The purchase's day in the advertiser's zone (the fake's first advertiser reports in UTC), not "today".
    const purchaseDay = dayIn(settled.event_time, 'Etc/GMT');
    const reports = createAdReportService({ repos: pipeline.repos });
    const byCampaign = await reports.report(ws.id, { level: 'campaign', from: summary.window!.startDate, to: summary.window!.endDate });
    const spring = byCampaign.rows.find((r) => r.entityId === SPRING_SALE);
    expect(spring).toMatchObject({ name: 'Spring sale', status: 'CAMPAIGN_STATUS_DELIVERY_OK', conversions: 1, conversionValue: '129.9', deliveredConversions: 1, deliveredValue: '129.9' });
    expect(byCampaign.rows.find((r) => r.entityId === '1800000000000000002')).toMatchObject({ name: 'Brand awareness', conversions: 0, deliveredConversions: 0, deliveredValue: null });
    const adDay = await reports.report(ws.id, { level: 'ad', from: purchaseDay, to: purchaseDay, granularity: 'day', campaignId: SPRING_SALE });
    expect(adDay.rows.find((r) => r.entityId === RETARGETING_AD)).toMatchObject({ date: purchaseDay, adgroupId: '1810000000000000002', campaignId: SPRING_SALE, conversions: 1, deliveredConversions: 1 });

    // Re-pulling overwrites instead of adding, and corrects a figure that changed since.
    const countRows = async () => Number((await pipeline.database.db('ad_stats_daily').where({ workspace_id: ws.id }).count({ n: '*' }))[0]?.n);
    const before = await countRows();
    await pipeline.database.db('ad_stats_daily').where({ workspace_id: ws.id, level: 'campaign', entity_id: SPRING_SALE }).update({ spend: 999999 });
    await runPull(ws);
    expect(await countRows()).toBe(before);
    expect((await reports.report(ws.id, { level: 'campaign', from: summary.window!.startDate, to: summary.window!.endDate })).rows).toEqual(byCampaign.rows);
  });

  it('pages through every page and halves a range TikTok finds too large (40067), retrying throttling (40100, 40133)', async () => {
    const ws = await pipeline.workspace({ connected: false });
    const context: AdStatsPullContext = {
      tiktok: createTikTokClient({ baseUrl: pipeline.fake.url }),
      adStats: pipeline.repos.adStats,
      workspaceId: ws.id,
      advertiserId: FAKE_TIKTOK_ADVERTISER_ID,
      accessToken: FAKE_TIKTOK_ACCESS_TOKEN,
      pageSize: 25,
      retry: { attempts: 3, delayMs: () => 10 },
    };
    await pipeline.fake.reset();
    await pipeline.fake.injectFaults([
      { path: REPORT_INTEGRATED_PATH, code: 40067 },
      { path: REPORT_INTEGRATED_PATH, code: 40100 },
      { path: REPORT_INTEGRATED_PATH, code: 40133 },
    ]);
    const result = await pullReportRange(context, 'ad', { startDate: '2026-01-01', endDate: '2026-01-30' });
    // 4 ads × 15 days per half = 60 rows = 3 pages of 25, twice; plus the refused request and two throttled ones.
    expect(result).toEqual({ ranges: 2, requests: 6, rows: 120 });
    const { requests } = await pipeline.fake.receivedEvents();
    const reportRequests = requests.filter((r) => r.path === REPORT_INTEGRATED_PATH).map((r) => r.answer?.code);
    expect(reportRequests).toEqual([40067, 40100, 40133, 0, 0, 0, 0, 0, 0]);
    const stored = await pipeline.database.db('ad_stats_daily').where({ workspace_id: ws.id }).count({ n: '*' });
    expect(Number(stored[0]?.n)).toBe(120);
  });

  it('empties CPC, CTR and ROAS when a denominator is zero and sums money exactly', async () => {
    const ws = await pipeline.workspace({ connected: false });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: 'x', advertiserId: '77', pixelCode: 'CX' });
    const day = (statDate: string, spend: string | null, impressions: number, clicks: number, value: string | null) => ({
      level: 'campaign' as const, entityId: '901', statDate, advertiserId: '77', campaignId: '901', adgroupId: null, spend, impressions, clicks, conversions: 0, conversionValue: value,
    });
    await pipeline.repos.adStats.upsertDaily(ws.id, [day('2026-02-01', '0', 0, 0, '0'), day('2026-02-02', '0.1', 10, 1, '0.3'), day('2026-02-03', '0.2', 30, 2, null)]);
    const report = await createAdReportService({ repos: pipeline.repos }).report(ws.id, { level: 'campaign', from: '2026-02-01', to: '2026-02-03', granularity: 'day' });
    expect(report.rows.map((r) => [r.date, r.spend, r.cpc, r.ctr, r.roas])).toEqual([
      ['2026-02-01', '0', null, null, null],
      ['2026-02-02', '0.1', '0.1', '10', '3'],
      ['2026-02-03', '0.2', '0.1', '6.6667', null],
    ]);
    expect(report.totals).toMatchObject({ rows: 3, spend: '0.3', impressions: 40, clicks: 3, cpc: '0.1', ctr: '7.5', conversionValue: '0.3', roas: '1' });
  });

  it('pauses the schedule with a note and ends as reauthorization_required when TikTok refuses the token', async () => {
    const ws = await pipeline.workspace({ connected: false });
    await connections.connectManually(ws.id, { accessToken: 'revoked-token', advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const summary = await runPull(ws);
    expect(summary).toMatchObject({ status: 'reauthorization_required', reason: expect.stringContaining('40105') });
    expect(await pipeline.repos.tiktokConnections.summary(ws.id)).toMatchObject({ status: 'reauthorization_required', statsPullError: expect.stringContaining('40105') });
    expect(await pipeline.adStatsSchedules.describe(ws.id)).toMatchObject({ paused: true, note: expect.stringContaining('Reconnect TikTok') });
    expect(await runPull(ws)).toMatchObject({ status: 'skipped', reason: 'tiktok_reauthorization_required' });
    await connections.disconnect(ws.id);
  });
});

describe('test mode verification (spec §4.5 step 4)', () => {
  it("sends one test conversion with the workspace's test_event_code and reports TikTok's answer", async () => {
    const ws = await pipeline.workspace({ settings: { testMode: true, testEventCode: 'TEST04030' } });
    const answer = await createTestConversionSender({ repos: pipeline.repos, tiktok: createTikTokClient({ baseUrl: pipeline.fake.url }) })(ws.id);
    expect(answer).toMatchObject({ accepted: true, code: 0, message: 'OK', testEventCode: 'TEST04030', pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    expect(answer.requestId).toMatch(/^\d{14}[0-9A-F]{20}$/);
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.find((e) => e.eventId === answer.eventId)).toMatchObject({ test: true, testEventCode: 'TEST04030', event: 'CompletePayment' });
  });
});
