import { ScheduleNotFoundError } from '@temporalio/client';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RouteContract } from '../../contract/route';
import { createOAuthStateSigner } from '../services/tiktok-connection';
import {
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_ADVERTISER_ID,
  FAKE_TIKTOK_APP_ID,
  FAKE_TIKTOK_APP_SECRET,
  FAKE_TIKTOK_PIXEL_CODE,
  FAKE_TIKTOK_SECOND_ADVERTISER_ID,
} from '../../devstack/tiktok-fake';
import type { Workspace } from '../../db/repositories/workspaces';
import { adStatsScheduleId } from '../../temporal/ad-stats-schedules';
import { declared } from '../../test/helpers/declared-answer';
import { TestPipeline } from '../../test/helpers/pipeline';
import { buildTestApp, TEST_ADMIN_TOKEN, TEST_SECRET_KEY, type TestApp } from '../../test/helpers/test-app';

// Pipeline start (worker bundle) and the statistics pull outlast jest's 5 s default in hooks.
jest.setTimeout(120_000);

const REDIRECT_URI = 'https://signalbox.test/oauth/tiktok/callback';
let pipeline: TestPipeline;
let subject: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  subject = buildTestApp(pipeline.database.db, {
    tiktokApiUrl: pipeline.fake.url,
    oauth: { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET, redirectUri: REDIRECT_URI, authUrl: `${pipeline.fake.url}/portal/auth` },
    schedules: pipeline.adStatsSchedules,
  });
  app = subject.app;
});
afterAll(async () => {
  await app.close();
  await pipeline.close();
});

function admin(method: InjectOptions['method'], url: string, payload?: unknown) {
  return app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
}

/** The answer parsed with the schema its route declares for its status: a field missing, extra or of another type fails. */
function asDeclared(method: RouteContract['method'], rest: string, response: LightMyRequestResponse) {
  return declared(method, `/admin/workspaces/:workspaceId/tiktok${rest}`, response.statusCode).parse(response.json()) as Record<string, unknown>;
}

async function newWorkspace(): Promise<Workspace> {
  return (await admin('POST', '/admin/workspaces', { name: 'Fern shop' })).json();
}

/** The owner's browser: opens the authorization URL; TikTok (the fake) redirects to the callback with auth_code and state. */
async function approveInBrowser(workspace: Workspace): Promise<string> {
  const { url } = (await admin('POST', `/admin/workspaces/${workspace.id}/tiktok/oauth/authorize`)).json();
  const redirect = await fetch(url, { redirect: 'manual' });
  const location = new URL(redirect.headers.get('location') as string);
  expect(location.origin + location.pathname).toBe(REDIRECT_URI);
  return `${location.pathname}${location.search}`;
}

/** The callback as the browser calls it: no admin token. */
function browserCallback(pathAndQuery: string, accept = 'text/html,application/xhtml+xml') {
  return app.inject({ method: 'GET', url: pathAndQuery, headers: { accept } });
}

const callbackUrl = (query: Record<string, string>) => `/oauth/tiktok/callback?${new URLSearchParams(query).toString()}`;

async function scheduleOf(workspace: Workspace) {
  return subject.temporal.schedule
    .getHandle(adStatsScheduleId(workspace.id))
    .describe()
    .catch((error: unknown) => {
      if (error instanceof ScheduleNotFoundError) return undefined;
      throw error;
    });
}

describe('OAuth connection over the settings API', () => {
  it('connects: URL → browser callback without the admin token → advertiser (schedule appears) → pixel → status; disconnect removes token and schedule', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/tiktok`;
    expect((await admin('GET', base)).statusCode).toBe(404);

    const authorization = await admin('POST', `${base}/oauth/authorize`);
    expect(authorization.statusCode).toBe(200);
    const { url, state, expiresAt } = asDeclared('POST', '/oauth/authorize', authorization) as { url: string; state: string; expiresAt: string };
    const params = new URL(url).searchParams;
    expect(url.startsWith(`${pipeline.fake.url}/portal/auth?`)).toBe(true);
    expect([params.get('app_id'), params.get('redirect_uri'), params.get('state')]).toEqual([FAKE_TIKTOK_APP_ID, REDIRECT_URI, state]);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());

    const page = await browserCallback(await approveInBrowser(ws));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>TikTok is connected</h1>');
    expect(page.body).toContain(`signalbox tiktok advertisers ${ws.id}`);

    const token = (await subject.repos.tiktokConnections.withToken(ws.id))?.accessToken as string;
    const row = await pipeline.database.db('tiktok_connections').where({ workspace_id: ws.id }).first();
    expect(row?.access_token_ciphertext).toMatch(/^v1\./);
    expect(row?.access_token_ciphertext).not.toContain(token);

    const connected = await admin('GET', base);
    expect(asDeclared('GET', '', connected)).toMatchObject({ source: 'oauth', status: 'active', advertiserId: null, missingPermissions: [], nextStep: 'select_advertiser', schedule: null });
    expect(connected.json().grantedScopes).toEqual(expect.arrayContaining(['4', '5', '8']));
    expect(connected.body).not.toContain(token);

    expect(asDeclared('GET', '/advertisers', await admin('GET', `${base}/advertisers`))).toEqual({
      advertisers: [
        { advertiserId: FAKE_TIKTOK_ADVERTISER_ID, advertiserName: 'Signalbox Dev Shop' },
        { advertiserId: FAKE_TIKTOK_SECOND_ADVERTISER_ID, advertiserName: 'Signalbox Dev Outlet' },
      ],
      selectedAdvertiserId: null,
    });
    const foreign = await admin('PUT', `${base}/advertiser`, { advertiserId: '1234567890123456789' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ error: 'advertiser_not_accessible', message: 'advertiserId: 1234567890123456789 is not among the advertisers this authorization covers' });
    expect((await admin('PUT', `${base}/advertiser`, { advertiserId: 7391846250173946 })).json().issues).toEqual([
      'advertiserId must be a string of digits (JSON numbers lose precision at this size)',
    ]);
    expect((await admin('PUT', `${base}/advertiser`, {})).json().issues).toEqual(['advertiserId is required']);
    expect((await admin('PUT', `${base}/pixel`, { pixelCode: FAKE_TIKTOK_PIXEL_CODE })).json()).toEqual({ error: 'advertiser_not_selected', message: 'select the advertiser before its pixel' });

    expect(await scheduleOf(ws)).toBeUndefined();
    const selected = await admin('PUT', `${base}/advertiser`, { advertiserId: FAKE_TIKTOK_ADVERTISER_ID });
    expect(asDeclared('PUT', '/advertiser', selected)).toMatchObject({ advertiserId: FAKE_TIKTOK_ADVERTISER_ID, advertiserName: 'Signalbox Dev Shop', nextStep: 'select_pixel' });
    const schedule = await scheduleOf(ws);
    expect(schedule?.state.paused).toBe(false);
    expect(schedule?.action).toMatchObject({ type: 'startWorkflow', workflowType: 'adStatsPullWorkflow', taskQueue: pipeline.taskQueue });

    expect(asDeclared('GET', '/pixels', await admin('GET', `${base}/pixels`))).toEqual({
      pixels: [
        { pixelId: '7391846250173940001', pixelCode: FAKE_TIKTOK_PIXEL_CODE, pixelName: 'Dev shop pixel' },
        { pixelId: '7391846250173940002', pixelCode: 'CSIGNALBOXDEVPIXEL02', pixelName: 'Dev shop staging pixel' },
      ],
      selectedPixelCode: null,
    });
    const otherAdvertisersPixel = await admin('PUT', `${base}/pixel`, { pixelCode: 'CSIGNALBOXOUTLETPX01' });
    expect(otherAdvertisersPixel.statusCode).toBe(400);
    expect(otherAdvertisersPixel.json()).toEqual({
      error: 'pixel_not_found',
      message: 'pixelCode: CSIGNALBOXOUTLETPX01 is not a pixel of the selected advertiser',
      details: { available: [FAKE_TIKTOK_PIXEL_CODE, 'CSIGNALBOXDEVPIXEL02'] },
    });
    expect((await admin('PUT', `${base}/pixel`, { pixelCode: 'lower-case' })).json().issues).toEqual([
      'pixelCode must be the pixel code: upper-case letters and digits, e.g. CIDGJS3C77U7QBTMVDP0',
    ]);
    expect(asDeclared('PUT', '/pixel', await admin('PUT', `${base}/pixel`, { pixelCode: FAKE_TIKTOK_PIXEL_CODE }))).toMatchObject({ pixelCode: FAKE_TIKTOK_PIXEL_CODE, pixelName: 'Dev shop pixel', nextStep: null });
    expect((await admin('GET', `${base}/pixels`)).json().selectedPixelCode).toBe(FAKE_TIKTOK_PIXEL_CODE);

    const status = asDeclared('GET', '', await admin('GET', base));
    expect(status).toMatchObject({ advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE, nextStep: null, missingPermissions: [] });
    expect(status.schedule).toMatchObject({ scheduleId: adStatsScheduleId(ws.id), paused: false, nextRunAt: expect.any(String) });

    expect(asDeclared('DELETE', '', await admin('DELETE', base))).toEqual({ deleted: true });
    expect(await scheduleOf(ws)).toBeUndefined();
    expect(await subject.repos.tiktokConnections.withToken(ws.id)).toBeUndefined();
    expect((await admin('GET', base)).statusCode).toBe(404);
    expect((await admin('DELETE', base)).json()).toEqual({ error: 'not_found', message: 'this workspace has no TikTok connection' });
  });

  it('refuses a malformed, tampered, expired, reused or foreign state and a bad or reused auth_code; names missing parameters', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const json = (url: string) => browserCallback(url, 'application/json');

    const first = await approveInBrowser(ws);
    const firstQuery = new URL(first, REDIRECT_URI).searchParams;
    const [authCode, state] = [firstQuery.get('auth_code') as string, firstQuery.get('state') as string];

    const [payload, signature] = state.split('.') as [string, string];
    const forged = Buffer.from(Buffer.from(payload, 'base64url').toString().replace(ws.id, other.id)).toString('base64url');
    const tampered = await json(callbackUrl({ auth_code: authCode, state: `${forged}.${signature}` }));
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toEqual({ error: 'state_invalid', message: 'state: the signature does not match (tampered, or issued with another SECRET_KEY)' });
    expect((await json(callbackUrl({ auth_code: authCode, state: 'garbage' }))).json()).toEqual({ error: 'state_invalid', message: 'state: not a state Signalbox issued (malformed)' });

    const stale = createOAuthStateSigner(TEST_SECRET_KEY).issue(ws.id, new Date(Date.now() - 11 * 60_000));
    const expired = await json(callbackUrl({ auth_code: authCode, state: stale.state }));
    expect(expired.json()).toMatchObject({ error: 'state_expired', message: expect.stringMatching(/^state: expired at .+; start the connection again$/) });

    expect((await json(callbackUrl({ state }))).json()).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^auth_code is required/) });
    expect((await json(callbackUrl({ auth_code: authCode }))).json()).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^state is required/) });

    // None of the refusals above spent the state: the genuine callback still completes, once.
    const completed = await json(first);
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({ connected: true, workspaceId: ws.id, connection: { source: 'oauth', nextStep: 'select_advertiser' } });
    expect(completed.json().message).toContain(`signalbox tiktok advertiser ${ws.id} <advertiser-id>`);
    expect((await json(first)).json()).toEqual({ error: 'state_reused', message: 'state: this authorization was already completed; start the connection again' });

    const reusedCode = await json(callbackUrl({ auth_code: authCode, state: new URL(await approveInBrowser(ws), REDIRECT_URI).searchParams.get('state') as string }));
    expect(reusedCode.statusCode).toBe(400);
    expect(reusedCode.json()).toMatchObject({ error: 'auth_code_rejected', message: expect.stringMatching(/^auth_code: TikTok refused it \(40110: /), details: { tiktokCode: 40110 } });
    const { state: fresh } = (await admin('POST', `/admin/workspaces/${ws.id}/tiktok/oauth/authorize`)).json();
    expect((await json(callbackUrl({ auth_code: 'not-a-code', state: fresh }))).json()).toMatchObject({ error: 'auth_code_rejected' });

    // The CLI's route: the workspace comes from the path, so a state issued for another one is refused.
    const foreign = await admin('POST', `/admin/workspaces/${other.id}/tiktok/oauth/callback`, { authCode: 'any', state: fresh });
    expect(foreign.json()).toEqual({ error: 'state_workspace_mismatch', message: 'state: it was issued for another workspace' });
    expect((await admin('POST', `/admin/workspaces/${other.id}/tiktok/oauth/callback`, { state: fresh })).json().issues).toEqual(['authCode is required']);
    expect(await subject.repos.tiktokConnections.summary(other.id)).toBeUndefined();

    const page = await browserCallback(callbackUrl({ auth_code: authCode, state: 'garbage' }));
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h1>TikTok could not be connected</h1>');
    expect(page.body).toContain('<p>state: not a state Signalbox issued (malformed)</p>');
    const replayed = await browserCallback(first);
    expect(replayed.body).toContain('<p>state: this authorization was already completed; start the connection again</p>');
    expect(replayed.body).toContain(`<p>Start again with signalbox tiktok connect ${ws.id} and open the new URL it prints.</p>`);
  });

  it('reports a grant that lacks a required permission and stores nothing', async () => {
    const ws = await newWorkspace();
    const { state } = (await admin('POST', `/admin/workspaces/${ws.id}/tiktok/oauth/authorize`)).json();
    const narrow = await pipeline.fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID, scopes: ['1', '4', '8'] });
    const answer = await browserCallback(callbackUrl({ auth_code: narrow, state }), 'application/json');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      error: 'missing_permissions',
      message: 'TikTok granted the connection without: send_conversion_events. Authorize again and keep all three permissions selected',
      details: { missing: ['send_conversion_events'], grantedScopes: ['1', '4', '8'] },
    });
    expect((await admin('GET', `/admin/workspaces/${ws.id}/tiktok`)).statusCode).toBe(404);
  });

  it('says which settings are missing when OAuth is not configured, while manual tokens still work', async () => {
    const unconfigured = buildTestApp(pipeline.database.db, { tiktokApiUrl: pipeline.fake.url, schedules: pipeline.adStatsSchedules });
    try {
      const ws = await newWorkspace();
      const answer = await unconfigured.app.inject({ method: 'POST', url: `/admin/workspaces/${ws.id}/tiktok/oauth/authorize`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        error: 'oauth_not_configured',
        message: 'TikTok OAuth is not configured: set TIKTOK_APP_ID, TIKTOK_APP_SECRET, TIKTOK_OAUTH_REDIRECT_URI (a manual token still works)',
      });
      const manual = await unconfigured.app.inject({
        method: 'PUT',
        url: `/admin/workspaces/${ws.id}/tiktok`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        payload: { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE },
      });
      expect(manual.json()).toMatchObject({ source: 'manual', pixelCode: FAKE_TIKTOK_PIXEL_CODE, nextStep: null });
    } finally {
      await unconfigured.app.close();
    }
  });
});

describe('manual token', () => {
  it('keeps the statistics schedule in step with the advertiser, and reports permissions as unknown', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/tiktok`;
    const saved = await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    expect(asDeclared('PUT', '', saved)).toMatchObject({ source: 'manual', grantedScopes: null, missingPermissions: [], nextStep: null });
    expect((await scheduleOf(ws))?.state.paused).toBe(false);
    await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    expect(await scheduleOf(ws)).toBeUndefined();
    expect(asDeclared('GET', '', await admin('GET', base))).toMatchObject({ advertiserId: null, schedule: null });
    expect(asDeclared('PUT', '/app', await admin('PUT', `${base}/app`, { appId: '7300000000000000001' }))).toMatchObject({ appId: '7300000000000000001', source: 'manual' });
    expect((await admin('GET', `${base}/advertisers`)).json()).toEqual({ advertisers: [], selectedAdvertiserId: null });
    await admin('DELETE', base);
  });
});

describe('statistics', () => {
  it('pulls now on request and shows the figures the pull stored', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/tiktok`;
    expect((await admin('POST', `${base}/stats/pull`)).json()).toEqual({ error: 'not_connected', message: 'this workspace has no TikTok connection' });
    await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const noAdvertiser = await admin('POST', `${base}/stats/pull`);
    expect(noAdvertiser.statusCode).toBe(409);
    expect(noAdvertiser.json().error).toBe('advertiser_not_selected');

    await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const triggered = await admin('POST', `${base}/stats/pull`);
    expect(triggered.statusCode).toBe(202);
    expect(asDeclared('POST', '/stats/pull', triggered)).toMatchObject({ triggered: true, scheduleId: adStatsScheduleId(ws.id) });

    let status = (await admin('GET', base)).json();
    while (status.statsPulledAt === null && status.statsPullError === null) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await admin('GET', base)).json();
    }
    expect(status).toMatchObject({ statsPullError: null, statsPulledAt: expect.any(String) });
    expect(status.schedule.lastRunAt).toEqual(expect.any(String));

    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const report = (await admin('GET', `${base}/reports?level=campaign&from=${day(27)}&to=${day(0)}`)).json();
    expect(report).toMatchObject({ advertiserId: FAKE_TIKTOK_ADVERTISER_ID, level: 'campaign', granularity: 'total', statsPulledAt: status.statsPulledAt });
    expect(report.rows.map((row: { entityId: string; name: string }) => [row.entityId, row.name]).sort()).toEqual([
      ['1800000000000000001', 'Spring sale'],
      ['1800000000000000002', 'Brand awareness'],
    ]);
    expect(Number(report.totals.impressions)).toBeGreaterThan(0);
    await admin('DELETE', base);
  });

  it('answers the figures of stored statistics, empty where a ratio divides by zero, and names bad parameters', async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/tiktok/reports`;
    expect((await admin('GET', `${base}?level=campaign&from=2026-02-01&to=2026-02-03`)).json()).toEqual({ error: 'not_connected', message: 'this workspace has no TikTok connection' });
    await subject.repos.tiktokConnections.put(ws.id, { accessToken: 'seeded', advertiserId: '77', pixelCode: 'CX' });
    const day = (statDate: string, spend: string | null, impressions: number | null, clicks: number | null, value: string | null) => ({
      level: 'campaign' as const, entityId: '901', statDate, advertiserId: '77', campaignId: '901', adgroupId: null, spend, impressions, clicks, conversions: 0, conversionValue: value,
    });
    await subject.repos.adStats.upsertDaily(ws.id, [day('2026-02-01', '0', 0, 0, '0'), day('2026-02-02', '0.1', 10, 1, '0.3'), day('2026-02-03', '0.2', 30, 2, null)]);
    await subject.repos.adStats.upsertEntities(ws.id, [{ level: 'campaign', entityId: '901', advertiserId: '77', campaignId: null, adgroupId: null, name: 'Winter', status: null }]);

    const daily = (await admin('GET', `${base}?level=campaign&from=2026-02-01&to=2026-02-03&granularity=day`)).json();
    expect(daily.rows.map((r: Record<string, unknown>) => [r.date, r.name, r.spend, r.cpc, r.ctr, r.roas])).toEqual([
      ['2026-02-01', 'Winter', '0', null, null, null],
      ['2026-02-02', 'Winter', '0.1', '0.1', '10', '3'],
      ['2026-02-03', 'Winter', '0.2', '0.1', '6.6667', null],
    ]);
    expect(daily.totals).toMatchObject({ rows: 3, spend: '0.3', impressions: 40, clicks: 3, cpc: '0.1', ctr: '7.5', conversionValue: '0.3', roas: '1', deliveredConversions: 0 });
    const total = (await admin('GET', `${base}?level=campaign&from=2026-02-01&to=2026-02-03&campaignId=901`)).json();
    expect(total.rows).toEqual([expect.objectContaining({ date: null, entityId: '901', spend: '0.3', clicks: 3 })]);
    expect((await admin('GET', `${base}?level=ad&from=2026-02-01&to=2026-02-03`)).json().rows).toEqual([]);

    const refused = (query: string) => admin('GET', `${base}?${query}`).then((r) => [r.statusCode, r.json().message]);
    expect(await refused('from=2026-02-01&to=2026-02-03')).toEqual([400, 'level is required: campaign, adgroup or ad']);
    expect(await refused('level=week&from=2026-02-01&to=2026-02-03')).toEqual([400, 'level must be campaign, adgroup or ad']);
    expect(await refused('level=ad&from=2026-02-30&to=2026-03-03')).toEqual([400, 'from: must be a date as YYYY-MM-DD, got "2026-02-30"']);
    expect(await refused('level=ad&from=2026-02-03&to=2026-02-01')).toEqual([400, 'to: must not be before from']);
    expect(await refused('level=ad&from=2026-02-01')).toEqual([400, 'to is required: the last day (inclusive), as YYYY-MM-DD']);
    expect(await refused('level=ad&from=2026-02-01&to=2026-02-02&limit=lots')).toEqual([400, 'limit must be an integer from 1 to 10000']);
    expect(await refused('level=ad&from=2026-02-01&to=2026-02-02&limit=0')).toEqual([400, 'limit: must be an integer from 1 to 10000']);
    expect(await refused('level=ad&from=2026-02-01&to=2026-02-02&granularity=week')).toEqual([400, 'granularity must be day or total']);
    expect(await refused('level=ad&from=2026-02-01&to=2026-02-02&colour=red')).toEqual([400, 'colour is not a known field']);
  });
});

describe('test conversion (spec §4.5 step 4)', () => {
  it("sends one test event with the workspace's test_event_code and answers TikTok's verdict; refuses without a code", async () => {
    const ws = await newWorkspace();
    const base = `/admin/workspaces/${ws.id}/tiktok`;
    await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const noCode = await admin('POST', `${base}/test-conversion`);
    expect(noCode.statusCode).toBe(409);
    expect(noCode.json()).toEqual({ error: 'test_event_code_missing', message: 'testEventCode: set the code shown in TikTok Events Manager → Test Events first' });

    await admin('PATCH', `/admin/workspaces/${ws.id}/settings`, { testMode: true, testEventCode: 'TEST55021' });
    const sent = await admin('POST', `${base}/test-conversion`);
    expect(sent.statusCode).toBe(200);
    const answer = asDeclared('POST', '/test-conversion', sent) as { requestId: string; eventId: string };
    expect(answer).toMatchObject({ accepted: true, code: 0, message: 'OK', testEventCode: 'TEST55021', pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    expect(answer.requestId).toMatch(/^\d{14}[0-9A-F]{20}$/);
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.find((e) => e.eventId === answer.eventId)).toMatchObject({ test: true, testEventCode: 'TEST55021', event: 'CompletePayment' });

    await admin('PUT', base, { accessToken: 'revoked-token', pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const refused = (await admin('POST', `${base}/test-conversion`)).json();
    expect(refused).toMatchObject({ accepted: false, code: 40105 });
    expect((await admin('GET', base)).json()).toMatchObject({ status: 'reauthorization_required', nextStep: 'reauthorize' });
  });
});
