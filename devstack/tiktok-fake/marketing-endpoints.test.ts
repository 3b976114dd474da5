import { createTikTokClient, type TikTokClient } from '../../adplatform/tiktok';
import {
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_ADVERTISER_ID,
  FAKE_TIKTOK_APP_ID,
  FAKE_TIKTOK_APP_SECRET,
  FAKE_TIKTOK_CRM_EVENT_SET_ID,
  FAKE_TIKTOK_OFFLINE_EVENT_SET_ID,
  FAKE_TIKTOK_PIXEL_CODE,
  FAKE_TIKTOK_SECOND_ADVERTISER_ID,
  startFakeTikTok,
  type FakeTikTok,
} from './index';

let fake: FakeTikTok;
let tiktok: TikTokClient;

beforeAll(async () => {
  fake = await startFakeTikTok();
  tiktok = createTikTokClient({ baseUrl: fake.url });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const app = { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET };
const report = (overrides: Partial<Parameters<TikTokClient['getReport']>[1]> = {}) =>
  tiktok.getReport(FAKE_TIKTOK_ACCESS_TOKEN, {
    advertiserId: FAKE_TIKTOK_ADVERTISER_ID,
    dataLevel: 'AUCTION_AD',
    dimensions: ['ad_id', 'stat_time_day'],
    metrics: ['spend', 'impressions', 'clicks', 'ctr', 'conversion', 'total_complete_payment_rate', 'ad_name', 'campaign_id', 'adgroup_id'],
    startDate: '2026-01-01',
    endDate: '2026-01-30',
    page: 1,
    pageSize: 1000,
    ...overrides,
  });

describe('OAuth code exchange', () => {
  it('trades a code for a token once, with permission IDs above 2^53 kept exact', async () => {
    const authCode = await fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID, scopes: ['1', '4', '7224195155857866754', '800'] });
    const first = await tiktok.exchangeAuthCode({ app_id: app.appId, secret: app.secret, auth_code: authCode });
    expect(first.outcome).toBe('success');
    if (first.outcome !== 'success') return;
    expect(first.body.data?.scope).toEqual([1, 4, '7224195155857866754', 800]);
    expect(first.body.data?.advertiser_ids).toContain(FAKE_TIKTOK_ADVERTISER_ID);
    const token = first.body.data?.access_token as string;
    const advertisers = await tiktok.listAdvertisers(token, app);
    expect(advertisers.outcome === 'success' && advertisers.body.data?.list).toContainEqual({ advertiser_id: FAKE_TIKTOK_ADVERTISER_ID, advertiser_name: 'Signalbox Dev Shop' });

    const again = await tiktok.exchangeAuthCode({ app_id: app.appId, secret: app.secret, auth_code: authCode });
    expect(again).toMatchObject({ outcome: 'permanent', code: 40110 });
  });

  it('refuses a wrong secret (40101) and an unknown code (40110)', async () => {
    const authCode = await fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID });
    expect(await tiktok.exchangeAuthCode({ app_id: app.appId, secret: 'wrong', auth_code: authCode })).toMatchObject({ outcome: 'permanent', code: 40101 });
    expect(await tiktok.exchangeAuthCode({ app_id: app.appId, secret: app.secret, auth_code: 'nope' })).toMatchObject({ outcome: 'permanent', code: 40110 });
  });

  it('sends the browser back from the authorization page with auth_code and the echoed state', async () => {
    const response = await fetch(`${fake.url}/portal/auth?app_id=${app.appId}&state=s-1&redirect_uri=${encodeURIComponent('https://signalbox.example/cb?x=1')}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') as string);
    expect(location.origin + location.pathname).toBe('https://signalbox.example/cb');
    expect(location.searchParams.get('state')).toBe('s-1');
    expect(location.searchParams.get('auth_code')).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('advertiser/info', () => {
  it("answers each granted advertiser's currency and time zone, narrowed to the fields asked for", async () => {
    const authCode = await fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID });
    const exchanged = await tiktok.exchangeAuthCode({ app_id: app.appId, secret: app.secret, auth_code: authCode });
    const token = exchanged.outcome === 'success' ? (exchanged.body.data?.access_token as string) : '';
    const info = await tiktok.getAdvertiserInfo(token, [FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_SECOND_ADVERTISER_ID], ['currency', 'display_timezone']);
    expect(info.outcome === 'success' && info.body.data?.list).toEqual([
      { advertiser_id: FAKE_TIKTOK_ADVERTISER_ID, currency: 'USD', display_timezone: 'Etc/GMT' },
      { advertiser_id: FAKE_TIKTOK_SECOND_ADVERTISER_ID, currency: 'JPY', display_timezone: 'Asia/Tokyo' },
    ]);
  });

  it('refuses an advertiser the token was not granted (40001) and a token without Ad Account Management', async () => {
    const denied = await tiktok.getAdvertiserInfo(FAKE_TIKTOK_ACCESS_TOKEN, [FAKE_TIKTOK_SECOND_ADVERTISER_ID], ['currency']);
    expect(denied).toMatchObject({ outcome: 'permanent', code: 40001 });
    await fake.registerToken({ accessToken: 'reports-only', pixelCodes: [], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID], scopes: ['4'] });
    expect(await tiktok.getAdvertiserInfo('reports-only', [FAKE_TIKTOK_ADVERTISER_ID], ['currency'])).toMatchObject({ outcome: 'permanent', code: 40001 });
  });
});

describe('pixel/list', () => {
  it('pages the advertiser pixels with page_size at most 20', async () => {
    const page = await tiktok.listPixels(FAKE_TIKTOK_ACCESS_TOKEN, { advertiserId: FAKE_TIKTOK_ADVERTISER_ID, page: 2, pageSize: 1 });
    expect(page.outcome === 'success' && page.body.data).toMatchObject({
      pixels: [{ pixel_code: 'CSIGNALBOXDEVPIXEL02' }],
      page_info: { page: 2, page_size: 1, total_number: 2, total_page: 2 },
    });
    expect(await tiktok.listPixels(FAKE_TIKTOK_ACCESS_TOKEN, { advertiserId: FAKE_TIKTOK_ADVERTISER_ID, page: 1, pageSize: 21 })).toMatchObject({
      outcome: 'permanent',
      code: 40002,
      message: 'Invalid value for page_size: must be an integer from 1 to 20.',
    });
  });

  it('refuses an advertiser the token was not granted (40001)', async () => {
    expect(await tiktok.listPixels(FAKE_TIKTOK_ACCESS_TOKEN, { advertiserId: '7391846250173946282', page: 1, pageSize: 10 })).toMatchObject({ outcome: 'permanent', code: 40001 });
  });
});

describe('offline/get and crm/list', () => {
  it("lists the advertiser's Offline and CRM Event Sets whole, with their IDs as strings", async () => {
    const offline = await tiktok.listOfflineEventSets(FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID);
    expect(offline.outcome === 'success' && offline.body.data?.event_set_list.map((set) => [set.event_set_id, set.name])).toEqual([
      [FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, 'Dev shop stores'],
      ['7391846250173950002', 'Dev shop phone orders'],
    ]);
    const crm = await tiktok.listCrmEventSets(FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID);
    expect(crm.outcome === 'success' && crm.body.data?.crm_event_sets).toEqual([{ event_set_id: FAKE_TIKTOK_CRM_EVENT_SET_ID, name: 'Dev shop CRM', create_time: '2024-01-15T09:30:00Z' }]);
  });

  it('refuses an advertiser the token was not granted, a token without the permission (40001), and a missing advertiser_id (40002)', async () => {
    expect(await tiktok.listOfflineEventSets(FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_SECOND_ADVERTISER_ID)).toMatchObject({ outcome: 'permanent', code: 40001 });
    await fake.registerToken({ accessToken: 'offline-only', pixelCodes: [], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID], scopes: ['7224195155857833986'] });
    expect((await tiktok.listOfflineEventSets('offline-only', FAKE_TIKTOK_ADVERTISER_ID)).outcome).toBe('success');
    expect(await tiktok.listCrmEventSets('offline-only', FAKE_TIKTOK_ADVERTISER_ID)).toMatchObject({
      outcome: 'permanent',
      code: 40001,
      message: 'No permission to operate /open_api/v1.3/crm/list/: the authorization does not include this permission.',
    });
    const response = await fetch(`${fake.url}/open_api/v1.3/crm/list/`, { headers: { 'Access-Token': FAKE_TIKTOK_ACCESS_TOKEN } });
    expect(await response.json()).toMatchObject({ code: 40002, message: 'Missing required field: advertiser_id.' });
  });

  it('lets an OAuth grant of every permission list both, for each advertiser, an advertiser without CRM Event Sets listing none', async () => {
    const authCode = await fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID });
    const exchanged = await tiktok.exchangeAuthCode({ app_id: app.appId, secret: app.secret, auth_code: authCode });
    const token = exchanged.outcome === 'success' ? (exchanged.body.data?.access_token as string) : '';
    const offline = await tiktok.listOfflineEventSets(token, FAKE_TIKTOK_SECOND_ADVERTISER_ID);
    expect(offline.outcome === 'success' && offline.body.data?.event_set_list).toMatchObject([{ event_set_id: '7391846250173950003', name: 'Outlet stores', advertiser_id: FAKE_TIKTOK_SECOND_ADVERTISER_ID }]);
    const crm = await tiktok.listCrmEventSets(token, FAKE_TIKTOK_SECOND_ADVERTISER_ID);
    expect(crm.outcome === 'success' && crm.body.data?.crm_event_sets).toEqual([]);
  });
});

describe('report/integrated/get', () => {
  it('answers metrics as strings, IDs as strings, days as "YYYY-MM-DD 00:00:00", with page_info', async () => {
    const result = await report({ pageSize: 7, page: 2 });
    expect(result.outcome).toBe('success');
    if (result.outcome !== 'success') return;
    const data = result.body.data!;
    expect(data.page_info).toEqual({ page: 2, page_size: 7, total_number: 4 * 30, total_page: 18 });
    expect(data.list).toHaveLength(7);
    const [row] = data.list;
    expect(row?.dimensions).toEqual({ ad_id: '1820000000000000001', stat_time_day: '2026-01-08 00:00:00' });
    for (const name of ['spend', 'impressions', 'clicks', 'ctr', 'conversion']) expect(typeof row?.metrics[name]).toBe('string');
    expect(row?.metrics).toMatchObject({ ad_name: 'Spring sale video A', campaign_id: '1800000000000000001', adgroup_id: '1810000000000000001' });
  });

  it('enforces the 30-day range with stat_time_day, page_size ≤ 1000 and known metrics with 40002', async () => {
    expect(await report({ endDate: '2026-01-31' })).toMatchObject({ code: 40002, message: expect.stringContaining('must not exceed 30 days') });
    expect(await report({ pageSize: 1001 })).toMatchObject({ code: 40002, message: expect.stringContaining('page_size') });
    expect(await report({ metrics: ['spend', 'roas_typo'] })).toMatchObject({
      code: 40002,
      message: 'Please correct the information in invalid metric fields and try again. Invalid metric fields: [roas_typo]',
    });
  });

  it('counts a live conversion sent with a ttclid it issued for that ad, and not a test one', async () => {
    const click = await fake.click('1820000000000000003', new Date('2026-01-05T10:00:00Z'));
    expect(new URL(click.landingUrl).searchParams.get('ad_id')).toBe('1820000000000000003');
    expect(new URL(click.landingUrl).searchParams.get('ttclid')).toBe(click.ttclid);
    const event = (id: string) => ({ event: 'CompletePayment', event_time: Date.parse('2026-01-05T12:00:00Z') / 1000, event_id: id, user: { ttclid: click.ttclid }, properties: { value: 129.9, currency: 'USD' } });
    await tiktok.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, { event_source: 'web', event_source_id: FAKE_TIKTOK_PIXEL_CODE, data: [event('live-1')] });
    await tiktok.trackEvents(FAKE_TIKTOK_ACCESS_TOKEN, { event_source: 'web', event_source_id: FAKE_TIKTOK_PIXEL_CODE, test_event_code: 'TEST12345', data: [event('test-1')] });

    const result = await report({ dataLevel: 'AUCTION_CAMPAIGN', dimensions: ['campaign_id', 'stat_time_day'], metrics: ['conversion', 'total_complete_payment_rate'], startDate: '2026-01-05', endDate: '2026-01-05' });
    expect(result.outcome === 'success' && result.body.data?.list).toEqual([
      { dimensions: { campaign_id: '1800000000000000001', stat_time_day: '2026-01-05 00:00:00' }, metrics: { conversion: '1', total_complete_payment_rate: '129.90' } },
      { dimensions: { campaign_id: '1800000000000000002', stat_time_day: '2026-01-05 00:00:00' }, metrics: { conversion: '0', total_complete_payment_rate: '0.00' } },
    ]);
  });

  it('refuses a token granted without the Reporting permission (40001)', async () => {
    await fake.registerToken({ accessToken: 'no-reporting', pixelCodes: [], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID], scopes: ['5', '8'] });
    const result = await tiktok.getReport('no-reporting', {
      advertiserId: FAKE_TIKTOK_ADVERTISER_ID, dataLevel: 'AUCTION_CAMPAIGN', dimensions: ['campaign_id'], metrics: ['spend'], startDate: '2026-01-01', endDate: '2026-01-02', page: 1, pageSize: 10,
    });
    expect(result).toMatchObject({ outcome: 'permanent', code: 40001 });
  });
});

describe('entity endpoints', () => {
  it('lists campaigns, ad groups and ads with names and status, paged', async () => {
    const ads = await tiktok.getEntities(FAKE_TIKTOK_ACCESS_TOKEN, 'ad', { advertiserId: FAKE_TIKTOK_ADVERTISER_ID, page: 1, pageSize: 3, fields: ['ad_id', 'ad_name', 'operation_status'] });
    expect(ads.outcome === 'success' && ads.body.data).toMatchObject({
      list: [{ ad_id: '1820000000000000001', ad_name: 'Spring sale video A', operation_status: 'ENABLE' }, {}, {}],
      page_info: { total_number: 4, total_page: 2 },
    });
    const campaigns = await tiktok.getEntities(FAKE_TIKTOK_ACCESS_TOKEN, 'campaign', { advertiserId: FAKE_TIKTOK_ADVERTISER_ID, page: 1, pageSize: 10 });
    expect(campaigns.outcome === 'success' && campaigns.body.data?.list.map((c) => [c.campaign_name, c.operation_status])).toEqual([
      ['Spring sale', 'ENABLE'],
      ['Brand awareness', 'DISABLE'],
    ]);
  });
});
