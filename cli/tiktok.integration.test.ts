import {
  FAKE_TIKTOK_ADVERTISER_ID,
  FAKE_TIKTOK_APP_ID,
  FAKE_TIKTOK_APP_SECRET,
  FAKE_TIKTOK_CRM_EVENT_SET_ID,
  FAKE_TIKTOK_OFFLINE_EVENT_SET_ID,
  FAKE_TIKTOK_PIXEL_CODE,
  startFakeTikTok,
  type FakeTikTok,
} from '../devstack/tiktok-fake';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { TIKTOK_OAUTH_CALLBACK_PATH } from '../api/http/paths';
import { buildTestApp, type TestApp } from '../test/helpers/test-app';
import { closeAll } from '../test/helpers/close-all';
import { runAgainst } from '../test/helpers/cli';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';

let testDb: TestDatabase;
let fake: FakeTikTok;
let subject: TestApp;
let url: string;
let reserved: ReservedPort;

beforeAll(async () => {
  testDb = await createTestDatabase();
  fake = await startFakeTikTok();
  // A port known before the server starts, so that the redirect URI points at it and the "browser" below can follow it.
  reserved = await reservePort();
  const { port } = reserved;
  const redirectUri = `http://127.0.0.1:${port}${TIKTOK_OAUTH_CALLBACK_PATH}`;
  subject = buildTestApp(testDb.db, { tiktokApiUrl: fake.url, oauth: { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET, redirectUri, authUrl: `${fake.url}/portal/auth` } });
  url = await subject.app.listen({ port, host: '127.0.0.1' });
});
afterAll(() =>
  closeAll(
    () => subject?.app.close(),
    () => reserved?.release(),
    () => fake?.close(),
    () => testDb?.destroy(),
  ),
);

const signalbox = (args: string[]) => runAgainst(url, args);

/** The URL `tiktok connect` prints on a line of its own. */
async function connectUrl(workspaceId: string): Promise<string> {
  const connect = await signalbox(['tiktok', 'connect', workspaceId]);
  expect(connect.code).toBe(0);
  expect(connect.stdout).toContain(`signalbox tiktok callback ${workspaceId} --code <auth_code> --state <state>`);
  return (connect.stdout.match(/^ {2}(http\S+)$/m) as RegExpMatchArray)[1] as string;
}

describe('signalbox tiktok (OAuth) and reports', () => {
  it('connects through OAuth step by step, pulls, shows figures, sends a test conversion and disconnects', async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Lamp shop', '--json'])).stdout).id as string;

    // The browser: open the printed URL; TikTok (the fake) approves and redirects to Signalbox's callback.
    const landed = await fetch(await connectUrl(ws));
    expect(landed.status).toBe(200);
    expect(await landed.json()).toMatchObject({ connected: true, workspaceId: ws });

    const status = await signalbox(['tiktok', 'status', ws]);
    expect(status.stdout).toMatch(/^Source: +oauth$/m);
    expect(status.stdout).toMatch(/^Permissions: +all three granted$/m);
    expect(status.stdout).toMatch(/^Statistics schedule: +none \(created when an advertiser is selected\)$/m);
    expect(status.stdout).toMatch(new RegExp(`^Next step: +choose the advertiser: signalbox tiktok advertisers ${ws}, then signalbox tiktok advertiser ${ws} <advertiser-id>$`, 'm'));

    const advertisers = await signalbox(['tiktok', 'advertisers', ws]);
    expect(advertisers.stdout.split('\n')).toEqual(['   ADVERTISER ID        NAME', '   7391846250173946281  Signalbox Dev Shop', '   7391846250173946282  Signalbox Dev Outlet']);
    expect((await signalbox(['tiktok', 'advertiser', ws, FAKE_TIKTOK_ADVERTISER_ID])).stdout).toMatch(/^Next step: +choose the pixel: /m);
    expect((await signalbox(['tiktok', 'advertisers', ws])).stdout).toMatch(/^\* +7391846250173946281 +Signalbox Dev Shop$/m);
    expect((await signalbox(['tiktok', 'pixels', ws])).stdout.split('\n')).toEqual([
      '   PIXEL CODE            NAME                    PIXEL ID',
      '   CSIGNALBOXDEVPIXEL01  Dev shop pixel          7391846250173940001',
      '   CSIGNALBOXDEVPIXEL02  Dev shop staging pixel  7391846250173940002',
    ]);
    expect((await signalbox(['tiktok', 'pixel', ws, FAKE_TIKTOK_PIXEL_CODE])).stdout).toMatch(/^Next step: +none, the connection is complete$/m);
    expect((await signalbox(['tiktok', 'offline-event-sets', ws])).stdout.split('\n')).toEqual([
      '   EVENT SET ID         NAME',
      '   7391846250173950001  Dev shop stores',
      '   7391846250173950002  Dev shop phone orders',
    ]);
    expect((await signalbox(['tiktok', 'offline-event-set', ws, FAKE_TIKTOK_OFFLINE_EVENT_SET_ID])).stdout).toMatch(/^Offline Event Set: +7391846250173950001 \(Dev shop stores\)$/m);
    expect(await signalbox(['tiktok', 'crm-event-set', ws])).toEqual({ code: 1, stdout: '', stderr: 'Error: give the CRM Event Set ID, or --clear' });
    expect((await signalbox(['tiktok', 'crm-event-set', ws, '12'])).stderr).toBe("Error: <eventSetId>: 12 is not one of the selected advertiser's CRM Event Sets");
    await signalbox(['tiktok', 'crm-event-set', ws, FAKE_TIKTOK_CRM_EVENT_SET_ID]);
    expect((await signalbox(['tiktok', 'crm-event-sets', ws])).stdout).toMatch(/^\* +7391846250173960001 +Dev shop CRM$/m);
    expect((await signalbox(['tiktok', 'show', ws])).stdout).toMatch(/^CRM Event Set: +7391846250173960001 \(Dev shop CRM\)$/m);
    expect((await signalbox(['tiktok', 'offline-event-set', ws, '--clear'])).stdout).toMatch(/^Offline Event Set: +-$/m);
    expect((await signalbox(['tiktok', 'status', ws])).stdout).toMatch(new RegExp(`^Statistics schedule: +signalbox-ad-stats-${ws}, active, next run \\d{4}-`, 'm'));
    expect((await signalbox(['tiktok', 'pull', ws])).stdout).toBe(
      `Statistics pull started (Temporal schedule signalbox-ad-stats-${ws}). signalbox tiktok status ${ws} shows when it has finished.`,
    );

    // When the redirect cannot reach the server: the owner copies auth_code and state from the address bar.
    const redirect = await fetch(await connectUrl(ws), { redirect: 'manual' });
    const copied = new URL(redirect.headers.get('location') as string).searchParams;
    const byHand = await signalbox(['tiktok', 'callback', ws, '--code', copied.get('auth_code') as string, '--state', copied.get('state') as string]);
    expect(byHand.stdout).toMatch(/^Advertiser ID: +7391846250173946281$/m);
    expect(byHand.stdout).toMatch(/^Pixel code: +CSIGNALBOXDEVPIXEL01$/m);
    expect(await signalbox(['tiktok', 'callback', ws, '--code', 'x', '--state', 'forged'])).toEqual({ code: 1, stdout: '', stderr: 'Error: state: not a state Signalbox issued (malformed)' });

    await subject.repos.adStats.upsertEntities(ws, [
      { level: 'campaign', entityId: '1800000000000000001', advertiserId: FAKE_TIKTOK_ADVERTISER_ID, campaignId: null, adgroupId: null, name: 'Spring sale', status: null },
    ]);
    const stat = (entityId: string, statDate: string, spend: string, impressions: number, clicks: number, conversions: number, value: string | null) => ({
      level: 'campaign' as const, entityId, statDate, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, campaignId: entityId, adgroupId: null, spend, impressions, clicks, conversions, conversionValue: value,
    });
    await subject.repos.adStats.upsertDaily(ws, [
      stat('1800000000000000001', '2026-03-01', '1000', 800, 80, 2, '2000'),
      stat('1800000000000000001', '2026-03-02', '234.5', 200, 20, 1, '469'),
      stat('1800000000000000002', '2026-03-02', '0', 0, 0, 0, null),
    ]);
    const report = await signalbox(['reports', ws, '--level', 'campaign', '--from', '2026-03-01', '--to', '2026-03-02']);
    expect(report.code).toBe(0);
    const lines = report.stdout.split('\n');
    expect(lines[0]).toBe('TikTok advertiser 7391846250173946281, campaign level, 2026-03-01 to 2026-03-02');
    expect(lines).toContainEqual(expect.stringMatching(/^1800000000000000001 +Spring sale +- +1,234\.50 +1,000 +100 +12\.35 +10\.00% +1,234\.50 +3 +411\.50 +3\.00% +2,469\.00 +2\.00 +0 +-$/));
    expect(lines).toContainEqual(expect.stringMatching(/^1800000000000000002 +- +- +0\.00 +0 +0 +- +- +- +0 +- +- +- +- +0 +-$/));
    expect(lines.at(-1)).toMatch(/^TOTAL +2 rows +1,234\.50 +1,000 +100 +12\.35 +10\.00% +1,234\.50 +3 +411\.50 +3\.00% +2,469\.00 +2\.00 +0 +-$/);

    const daily = await signalbox(['reports', ws, '--from', '2026-03-01', '--to', '2026-03-02', '--daily', '--campaign', '1800000000000000001', '--limit', '1']);
    expect(daily.stdout).toMatch(/^DATE +CAMPAIGN +NAME +STATUS +SPEND +IMPRESSIONS/m);
    expect(daily.stdout).toMatch(/^2026-03-01 +1800000000000000001 +Spring sale +- +1,000\.00 +800 +80 +12\.50 +10\.00% +1,250\.00 +2 +500\.00 +2\.50% +2,000\.00 +2\.00 +0 +-$/m);
    expect(daily.stdout).toMatch(/^Rows 1–1 of 2: add --offset 1 for more\.$/m);
    const json = JSON.parse((await signalbox(['reports', ws, '--from', '2026-03-01', '--to', '2026-03-02', '--json'])).stdout);
    expect(json.totals).toMatchObject({ rows: 2, spend: '1234.5', cpc: '12.345' });
    expect(await signalbox(['reports', ws, '--from', '2026-03-02', '--to', '2026-03-01'])).toEqual({ code: 1, stdout: '', stderr: 'Error: to: must not be before from' });

    expect((await signalbox(['tiktok', 'test', ws])).stderr).toBe('Error: testEventCode: set the code shown in TikTok Events Manager → Test Events first');
    await signalbox(['settings', 'set', ws, '--test-mode', '--test-event-code', 'TEST31337']);
    const test = await signalbox(['tiktok', 'test', ws]);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/^Accepted: +yes$/m);
    expect(test.stdout).toMatch(/^TikTok code: +0$/m);
    expect(test.stdout).toMatch(/^TikTok message: +OK$/m);
    expect(test.stdout).toMatch(/^Request ID: +\d{14}[0-9A-F]{20}$/m);
    expect(test.stdout).toMatch(/^Test event code: +TEST31337$/m);

    expect((await signalbox(['tiktok', 'disconnect', ws])).stdout).toBe(`Removed the TikTok connection of ${ws} and its statistics schedule`);
    const gone = await signalbox(['tiktok', 'status', ws]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^Error: this workspace has no TikTok connection/);
  });
});
