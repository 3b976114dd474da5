import type { FastifyInstance } from 'fastify';
import { adReport } from '../../contract/ad-report';
import { declared } from '../../test/helpers/declared-answer';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';
import type { AdEntityInput, DailyStatInput } from '../../db/repositories/ad-stats';
import { adStatsScheduleId } from '../../temporal/ad-stats-schedules';

const ADVERTISER = '7100000000000000001';
const CAMPAIGN = '1800000000000000001';
const LOOKALIKES = '1810000000000000001';
const RETARGETING = '1810000000000000002';
const DAY = '2026-11-20';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let ws: string;
let workspaceId: string;
let editor: ReturnType<typeof asPerson>;
let viewer: ReturnType<typeof asPerson>;

const entity = (level: AdEntityInput['level'], entityId: string, name: string, adgroupId: string | null = null): AdEntityInput => ({
  level,
  entityId,
  advertiserId: ADVERTISER,
  campaignId: CAMPAIGN,
  adgroupId,
  name,
  status: null,
});
const adDay = (entityId: string, adgroupId: string, spend: string, conversions: number, conversionValue: string): DailyStatInput => ({
  level: 'ad',
  entityId,
  statDate: DAY,
  advertiserId: ADVERTISER,
  campaignId: CAMPAIGN,
  adgroupId,
  spend,
  impressions: 1000,
  clicks: 20,
  conversions,
  conversionValue,
});

/** A delivered purchase whose click came from `ad` of `adgroupId`. */
async function delivered(serial: number, adgroupId: string, ad: string, value: string) {
  const at = new Date(`${DAY}T12:00:00Z`);
  const [event] = await testDb.db('events')
    .insert({ workspace_id: workspaceId, message_id: `order-${serial}`, type: 'track', event_name: 'purchase', user_id: `u-${serial}`, occurred_at: at, received_at: at, message: {} as never })
    .returning('id');
  await testDb.db('conversions').insert({
    workspace_id: workspaceId, event_row_id: (event as { id: string }).id, message_id: `order-${serial}`, source_event: 'purchase', tiktok_event: 'CompletePayment',
    event_id: `F-${serial}`, event_time: at, workflow_id: `wf-${serial}`, status: 'delivered', currency: 'USD', value: value as never,
    click_campaign_id: CAMPAIGN, click_adgroup_id: adgroupId, click_ad_id: ad,
  } as never);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  workspaceId = await createWorkspace(app, 'Fern shop');
  ws = `workspaces/${workspaceId}`;
  editor = asPerson(app, await personIn(app, workspaceId, 'ed@fern.example', 'editor'));
  viewer = asPerson(app, await personIn(app, workspaceId, 'vi@fern.example', 'viewer'));
  await subject.repos.tiktokConnections.put(workspaceId, { accessToken: 'token', advertiserId: ADVERTISER, pixelCode: null });
  await subject.repos.tiktokConnections.recordAdvertiserInfo(workspaceId, ADVERTISER, { currency: 'USD', timeZone: 'UTC' });
  await subject.repos.adStats.storePage(
    workspaceId,
    [
      { ...adDay(CAMPAIGN, LOOKALIKES, '75', 3, '110'), level: 'campaign', adgroupId: null },
      adDay('1820000000000000001', LOOKALIKES, '40', 2, '80'), adDay('1820000000000000002', LOOKALIKES, '10', 0, '0'), adDay('1820000000000000003', RETARGETING, '25', 1, '30'),
    ],
    [
      entity('campaign', CAMPAIGN, 'Spring sale'),
      entity('adgroup', LOOKALIKES, 'Spring sale – lookalikes', LOOKALIKES),
      entity('adgroup', RETARGETING, 'Spring sale – retargeting', RETARGETING),
      entity('ad', '1820000000000000001', 'Video A', LOOKALIKES),
      entity('ad', '1820000000000000002', 'Video B', LOOKALIKES),
      entity('ad', '1820000000000000003', 'Carousel', RETARGETING),
    ],
  );
  await delivered(1, LOOKALIKES, '1820000000000000002', '15');
  await delivered(2, RETARGETING, '1820000000000000003', '50');
});
afterAll(async () => {
  await subject.temporal.schedule.getHandle(adStatsScheduleId(workspaceId)).delete().catch(() => undefined);
  await app.close();
  await testDb.destroy();
});

const period = `from=${DAY}&to=${DAY}`;

describe('ad performance in the console', () => {
  it('narrows the ads to one ad group, names the campaign and the ad group, and puts TikTok’s ROAS beside Signalbox’s', async () => {
    const report = (await viewer('GET', `${ws}/ads/report?level=ad&campaignId=${CAMPAIGN}&adgroupId=${LOOKALIKES}&${period}`)).json();
    // The answer the console and the CLI read as the contract's AdReport: every field declared, none missing.
    expect(() => adReport.parse(report)).not.toThrow();
    expect(report.scope).toEqual({ campaign: { id: CAMPAIGN, name: 'Spring sale' }, adgroup: { id: LOOKALIKES, name: 'Spring sale – lookalikes' } });
    expect(report.rows.map((r: Record<string, unknown>) => [r.name, r.conversions, r.roas, r.deliveredConversions, r.deliveredValue, r.deliveredRoas])).toEqual([
      ['Video A', 2, '2', 0, null, null],
      ['Video B', 0, '0', 1, '15', '1.5'],
    ]);
    expect(report.totals).toMatchObject({ rows: 2, spend: '50', deliveredValue: '15', deliveredRoas: '0.3' });

    const campaigns = (await viewer('GET', `${ws}/ads/report?${period}`)).json();
    expect(campaigns.scope).toEqual({ campaign: null, adgroup: null });
    expect(campaigns.rows).toEqual([expect.objectContaining({ name: 'Spring sale', spend: '75', roas: '1.4667', deliveredValue: '65', deliveredRoas: '0.8667' })]);
  });

  it('exports the ads of the ad group on screen only, in a file named for it', async () => {
    const csv = await viewer('GET', `${ws}/ads/report.csv?level=ad&campaignId=${CAMPAIGN}&adgroupId=${LOOKALIKES}&${period}`);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="signalbox-ads-of-adgroup-${LOOKALIKES}-${DAY}-${DAY}.csv"`);
    const names = csv.body.trim().split('\r\n').slice(1).map((line) => line.split(',')[2]);
    expect(names).toEqual(['Video A', 'Video B']);
    const campaignFile = await viewer('GET', `${ws}/ads/report.csv?level=adgroup&campaignId=${CAMPAIGN}&${period}`);
    expect(campaignFile.headers['content-disposition']).toBe(`attachment; filename="signalbox-adgroups-of-campaign-${CAMPAIGN}-${DAY}-${DAY}.csv"`);
  });

  it('names the field of a wrong scope', async () => {
    const wrong = await viewer('GET', `${ws}/ads/report?level=adgroup&adgroupId=${LOOKALIKES}&${period}`);
    expect([wrong.statusCode, wrong.json().message]).toEqual([400, 'adgroupId: narrows only the ads of an ad group (level ad)']);
    const letters = await viewer('GET', `${ws}/ads/report?level=ad&adgroupId=abc&${period}`);
    expect([letters.statusCode, letters.json().message]).toEqual([400, 'adgroupId: must be a string of digits']);
  });

  it('pulls statistics now for an editor, through the workspace’s schedule, with a change-log entry; a viewer is refused', async () => {
    const refused = await viewer('POST', `${ws}/ads/pull`);
    expect([refused.statusCode, refused.json().message]).toEqual([403, 'your role (viewer) cannot do this: it needs an editor or owner']);
    const withoutToken = await editor('POST', `${ws}/ads/pull`, undefined, { 'x-csrf-token': 'not-the-token' });
    expect(withoutToken.statusCode).toBe(403);
    expect(await testDb.db('change_log').where({ workspace_id: workspaceId, action: 'tiktok.stats_pull' })).toEqual([]);

    const pulled = await editor('POST', `${ws}/ads/pull`);
    expect(pulled.statusCode).toBe(202);
    expect(declared('POST', '/console/api/workspaces/:workspaceId/ads/pull', 202).parse(pulled.json())).toMatchObject({ triggered: true });
    const schedule = await subject.temporal.schedule.getHandle(adStatsScheduleId(workspaceId)).describe();
    expect(schedule.info.recentActions.length + schedule.info.runningActions.length).toBeGreaterThan(0);
    const [entry] = await testDb.db('change_log').where({ workspace_id: workspaceId, action: 'tiktok.stats_pull' });
    expect(entry).toMatchObject({ actor: expect.stringMatching(/^user:usr_/), after: { advertiserId: ADVERTISER } });
    const log = (await viewer('GET', `${ws}/change-log`)).json();
    expect(JSON.stringify(log)).toContain(`Asked TikTok for the latest ad statistics of the advertiser ${ADVERTISER}`);
  });
});
