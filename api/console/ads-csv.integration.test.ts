import { pullReportRange } from '../../adplatform/ad-stats';
import { createTikTokClient } from '../../adplatform/tiktok';
import { startFakeTikTok, type FakeTikTok, type FakeTikTokAdvertiserSeed } from '../../devstack/tiktok-fake';
import { dayIn } from '../../devstack/tiktok-fake/report/dates';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';

const ADVERTISER = '7391846250179990001';
const TOKEN = 'ads-csv-token';
const DAY_MS = 86_400_000;

/** Names anyone who can edit the ad account can give, each a formula a spreadsheet would run. */
const CAMPAIGN_NAME = '=HYPERLINK("http://evil.example","x")';
const ADGROUP_NAME = '+1';
const AD_NAMES = { tab: '\tcmd', at: '@SUM(A1)' };

const advertiser: FakeTikTokAdvertiserSeed = {
  advertiserId: ADVERTISER,
  advertiserName: 'Formula shop',
  currency: 'USD',
  timeZone: 'Etc/GMT',
  pixels: [],
  campaigns: [
    {
      campaignId: '7391846100000000001',
      campaignName: CAMPAIGN_NAME,
      adGroups: [
        {
          adgroupId: '7391846200000000001',
          adgroupName: ADGROUP_NAME,
          ads: [
            { adId: '7391846300000000001', adName: AD_NAMES.tab },
            { adId: '7391846300000000002', adName: AD_NAMES.at },
          ],
        },
      ],
    },
  ],
  landingPageUrl: 'https://shop.example/landing',
};

let testDb: TestDatabase;
let subject: TestApp;
let fake: FakeTikTok;
let viewer: ReturnType<typeof asPerson>;
let ws: string;
/** The week before the test's own day, in the advertiser's zone (UTC): the days TikTok reports figures for. */
const to = dayIn(new Date(Date.now() - DAY_MS), 'Etc/GMT');
const from = dayIn(new Date(Date.now() - 7 * DAY_MS), 'Etc/GMT');

beforeAll(async () => {
  fake = await startFakeTikTok({ seed: { tokens: [{ accessToken: TOKEN, pixelCodes: [], advertiserIds: [ADVERTISER] }], advertisers: [advertiser] } });
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  const workspaceId = await createWorkspace(subject.app, 'Formula shop');
  ws = `workspaces/${workspaceId}`;
  viewer = asPerson(subject.app, await personIn(subject.app, workspaceId, 'vi@formula.example', 'viewer'));
  await subject.repos.tiktokConnections.put(workspaceId, { accessToken: TOKEN, advertiserId: ADVERTISER, pixelCode: null });
  await subject.repos.tiktokConnections.recordAdvertiserInfo(workspaceId, ADVERTISER, { currency: 'USD', timeZone: 'Etc/GMT' });
  // The statistics pull as the worker runs it: TikTok's reports carry each entity's name.
  const context = { tiktok: createTikTokClient({ baseUrl: fake.url }), adStats: subject.repos.adStats, workspaceId, advertiserId: ADVERTISER, accessToken: TOKEN };
  for (const level of ['campaign', 'adgroup', 'ad'] as const) await pullReportRange(context, level, { startDate: from, endDate: to });
});
afterAll(async () => {
  await subject?.app.close();
  await testDb?.destroy();
  await fake?.close();
});

/** The export of a level, totalled over the week: its body, and its lines after the header. */
async function exported(level: 'campaign' | 'adgroup' | 'ad'): Promise<{ body: string; lines: string[] }> {
  const answer = await viewer('GET', `${ws}/ads/report.csv?level=${level}&from=${from}&to=${to}`);
  expect(answer.statusCode).toBe(200);
  return { body: answer.body, lines: answer.body.split('\r\n').slice(1, -1) };
}

describe('the ads CSV export of names TikTok reports', () => {
  it('keeps each formula a name holds as text, with a leading quote a spreadsheet does not run, and figures as numbers', async () => {
    const campaigns = await exported('campaign');
    expect(campaigns.lines).toHaveLength(1);
    expect(campaigns.body).toContain(`\r\n,campaign,"'=HYPERLINK(""http://evil.example"",""x"")",7391846100000000001,7391846100000000001,,`);

    // No other cell holds a comma: the lines split into their cells.
    const adgroups = (await exported('adgroup')).lines.map((line) => line.split(','));
    const ads = (await exported('ad')).lines.map((line) => line.split(','));
    expect(adgroups.map((cells) => cells.slice(0, 6))).toEqual([['', 'ad group', "'+1", '7391846200000000001', '7391846100000000001', '7391846200000000001']]);
    expect(ads.map((cells) => cells.slice(0, 6))).toEqual([
      ['', 'ad', "'\tcmd", '7391846300000000001', '7391846100000000001', '7391846200000000001'],
      ['', 'ad', "'@SUM(A1)", '7391846300000000002', '7391846100000000001', '7391846200000000001'],
    ]);
    // TikTok's figures are numbers: never a leading quote, never quoted.
    for (const cells of [...adgroups, ...ads]) {
      expect(cells).toHaveLength(17);
      for (const figure of cells.slice(6)) expect(figure).toMatch(/^(\d+(\.\d+)?)?$/);
      expect(Number(cells[6])).toBeGreaterThan(0);
    }
  });
});
