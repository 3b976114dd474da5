import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RouteContract } from '../../contract/route';
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
} from '../../devstack/tiktok-fake';
import { closeAll } from '../../test/helpers/close-all';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { declared } from '../../test/helpers/declared-answer';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let fake: FakeTikTok;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  fake = await startFakeTikTok();
  subject = buildTestApp(testDb.db, {
    tiktokApiUrl: fake.url,
    oauth: { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET, redirectUri: 'https://signalbox.test/oauth/tiktok/callback', authUrl: `${fake.url}/portal/auth` },
  });
});
afterAll(() =>
  closeAll(
    () => subject?.app.close(),
    () => fake?.close(),
    () => testDb?.destroy(),
  ),
);

function admin(method: InjectOptions['method'], url: string, payload?: unknown) {
  return subject.app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
}

/** The answer parsed with the schema its route declares for its status. */
function asDeclared(method: RouteContract['method'], rest: string, response: LightMyRequestResponse) {
  return declared(method, `/admin/workspaces/:workspaceId/tiktok${rest}`, response.statusCode).parse(response.json()) as Record<string, unknown>;
}

/** A workspace connected through OAuth with a grant of `scopes` (the fake's default: every permission). */
async function connectedThroughOAuth(scopes?: string[]): Promise<string> {
  const ws = (await admin('POST', '/admin/workspaces', { name: 'Fern shop' })).json().id as string;
  const base = `/admin/workspaces/${ws}/tiktok`;
  const { state } = (await admin('POST', `${base}/oauth/authorize`)).json();
  const authCode = await fake.issueAuthCode({ appId: FAKE_TIKTOK_APP_ID, ...(scopes ? { scopes } : {}) });
  expect((await admin('POST', `${base}/oauth/callback`, { authCode, state })).statusCode).toBe(200);
  return base;
}

describe('Offline and CRM Event Sets through the settings API', () => {
  it("lists the advertiser's event sets, selects one of them, names it in the connection and the change log, and forgets them with the advertiser", async () => {
    const base = await connectedThroughOAuth();
    expect((await admin('GET', `${base}/offline-event-sets`)).json()).toEqual({ error: 'advertiser_not_selected', message: 'select the advertiser before its Offline Event Set' });
    await admin('PUT', `${base}/advertiser`, { advertiserId: FAKE_TIKTOK_ADVERTISER_ID });

    expect(asDeclared('GET', '/offline-event-sets', await admin('GET', `${base}/offline-event-sets`))).toEqual({
      eventSets: [
        { eventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, eventSetName: 'Dev shop stores' },
        { eventSetId: '7391846250173950002', eventSetName: 'Dev shop phone orders' },
      ],
      selectedEventSetId: null,
    });
    const outlets = await admin('PUT', `${base}/offline-event-set`, { eventSetId: '7391846250173950003' });
    expect(outlets.statusCode).toBe(400);
    expect(outlets.json()).toEqual({
      error: 'event_set_not_found',
      message: "eventSetId: 7391846250173950003 is not one of the selected advertiser's Offline Event Sets",
      details: { available: [FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, '7391846250173950002'] },
    });
    expect((await admin('PUT', `${base}/offline-event-set`, { eventSetId: 7391846250173950 })).json().issues).toEqual(['eventSetId must be a string of digits, or null to send to no event set of this kind']);
    expect((await admin('PUT', `${base}/crm-event-set`, { eventSetId: 'crm-1' })).json().issues).toEqual(['eventSetId must be the event set ID: digits only, e.g. 7123456789012345678']);

    const offline = await admin('PUT', `${base}/offline-event-set`, { eventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID });
    expect(asDeclared('PUT', '/offline-event-set', offline)).toMatchObject({ offlineEventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, offlineEventSetName: 'Dev shop stores', crmEventSetId: null });
    expect(asDeclared('GET', '/crm-event-sets', await admin('GET', `${base}/crm-event-sets`))).toEqual({
      eventSets: [{ eventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID, eventSetName: 'Dev shop CRM' }],
      selectedEventSetId: null,
    });
    await admin('PUT', `${base}/crm-event-set`, { eventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID });
    expect((await admin('GET', `${base}/crm-event-sets`)).json().selectedEventSetId).toBe(FAKE_TIKTOK_CRM_EVENT_SET_ID);
    expect(asDeclared('GET', '', await admin('GET', base))).toMatchObject({
      offlineEventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID,
      offlineEventSetName: 'Dev shop stores',
      crmEventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID,
      crmEventSetName: 'Dev shop CRM',
    });

    expect(asDeclared('PUT', '/crm-event-set', await admin('PUT', `${base}/crm-event-set`, { eventSetId: null }))).toMatchObject({ crmEventSetId: null, crmEventSetName: null });
    const workspaceId = base.split('/')[3] as string;
    const logged = await testDb.db('change_log').where({ workspace_id: workspaceId, action: 'tiktok.offline_event_set' }).first();
    expect(logged?.after).toMatchObject({ offlineEventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, offlineEventSetName: 'Dev shop stores' });

    // The sets belong to the advertiser: choosing another one clears them, as it clears the pixel.
    expect(asDeclared('PUT', '/advertiser', await admin('PUT', `${base}/advertiser`, { advertiserId: FAKE_TIKTOK_SECOND_ADVERTISER_ID }))).toMatchObject({ offlineEventSetId: null, offlineEventSetName: null });
    expect((await admin('GET', `${base}/offline-event-sets`)).json().eventSets).toEqual([{ eventSetId: '7391846250173950003', eventSetName: 'Outlet stores' }]);
  });

  it('names the permission an OAuth grant lacks without asking TikTok, and takes an event set by ID alone then', async () => {
    const base = await connectedThroughOAuth(['1', '4', '5', '8']);
    await admin('PUT', `${base}/advertiser`, { advertiserId: FAKE_TIKTOK_ADVERTISER_ID });
    const before = (await fake.receivedEvents()).requests.length;
    const refused = await admin('GET', `${base}/offline-event-sets`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'permission_missing',
      message:
        "listing Offline Event Sets: the TikTok connection lacks the permission to read Offline Event Sets (Offline Events Management → Read Offline Events); authorize TikTok again with it selected, or give the Offline Event Set's ID from Events Manager",
      details: { permission: 'read_offline_event_sets', description: 'read Offline Event Sets (Offline Events Management → Read Offline Events)' },
    });
    expect((await fake.receivedEvents()).requests).toHaveLength(before);

    const byId = await admin('PUT', `${base}/offline-event-set`, { eventSetId: '7391846250173959999' });
    expect(asDeclared('PUT', '/offline-event-set', byId)).toMatchObject({ offlineEventSetId: '7391846250173959999', offlineEventSetName: null });
  });

  it("names the permission when TikTok refuses a manual token's list, keeps the sets across a new token for the same advertiser", async () => {
    await fake.registerToken({ accessToken: 'events-only', pixelCodes: [FAKE_TIKTOK_PIXEL_CODE], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID], scopes: ['5', '8'] });
    const ws = (await admin('POST', '/admin/workspaces', { name: 'Lamp shop' })).json().id as string;
    const base = `/admin/workspaces/${ws}/tiktok`;
    await admin('PUT', base, { accessToken: 'events-only', advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });

    const refused = await admin('GET', `${base}/crm-event-sets`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'permission_missing',
      details: { permission: 'read_crm_event_sets', description: 'read CRM Event Sets (CRM Event Management → Read CRM Event Sets)', tiktokCode: 40001 },
    });
    expect(asDeclared('PUT', '/crm-event-set', await admin('PUT', `${base}/crm-event-set`, { eventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID }))).toMatchObject({
      crmEventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID,
      crmEventSetName: null,
    });

    // A token that may list them: the same advertiser keeps the set; another advertiser (or none) drops it.
    await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    expect((await admin('GET', `${base}/crm-event-sets`)).json()).toEqual({ eventSets: [{ eventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID, eventSetName: 'Dev shop CRM' }], selectedEventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID });
    expect((await admin('PUT', base, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE })).json()).toMatchObject({ advertiserId: null, crmEventSetId: null });
    await admin('DELETE', base);
  });
});
