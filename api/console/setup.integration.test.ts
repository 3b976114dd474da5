import type { FastifyInstance } from 'fastify';
import type { SetupView } from '../../contract/setup-views';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { declared } from '../../test/helpers/declared-answer';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';
import { daysOf } from '../../test/helpers/days';

const SHOP = 'https://fern.example';
let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let workspaceId: string;
let ws: string;
let owner: ReturnType<typeof asPerson>;
let viewer: ReturnType<typeof asPerson>;

const setup = async (as = owner) => {
  const answer = await as('GET', `${ws}/setup`);
  expect(answer.statusCode).toBe(200);
  return declared('GET', '/console/api/workspaces/:workspaceId/setup', 200).parse(answer.json()) as SetupView;
};
const doneSteps = async () => (await setup()).steps.filter((s) => s.done).map((s) => s.key);

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  workspaceId = await createWorkspace(app, 'Fern shop');
  ws = `workspaces/${workspaceId}`;
  owner = asPerson(app, await personIn(app, workspaceId, 'owner@fern.example', 'owner'));
  viewer = asPerson(app, await personIn(app, workspaceId, 'viewer@fern.example', 'viewer'));
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** Marks the workspace's pending conversions delivered, carrying these match keys, as the pipeline records them. */
async function deliverPending(keys: string[]) {
  const matchKeys = Object.fromEntries(keys.map((key) => [key, { source: 'message' as const }]));
  await testDb.db('conversions').where({ workspace_id: workspaceId, status: 'pending' }).update({ status: 'delivered', match_keys: matchKeys, completed_at: new Date() });
}

describe('the setup checklist', () => {
  it('is all open on a new workspace, for a viewer too, each step with its words and its page', async () => {
    const fresh = await setup(viewer);
    expect(fresh).toMatchObject({ done: 0, complete: false });
    expect(fresh.steps.map((s) => [s.key, s.done, s.link.path])).toEqual([
      ['tracking_script', false, 'sources#install'],
      ['events', false, 'debugger'],
      ['tiktok', false, 'sources#tiktok'],
      ['pixel', false, 'sources#tiktok'],
      ['rule', false, 'rules'],
      ['first_delivery', false, 'conversions'],
      ['match_rate', false, 'overview#match-quality'],
    ]);
    expect(fresh.steps.every((s) => s.explanation.length > 20 && !/[{}]|_id\b/.test(s.explanation))).toBe(true);
  });

  it('sees the tracking tag only once a browser key sent events from an allowed origin', async () => {
    expect((await owner('PATCH', `${ws}/settings`, { allowedOrigins: [SHOP] })).statusCode).toBe(200);
    const browserKey = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'web', kind: 'browser' })).json().key as string;
    const page = (origin: string, n: number) =>
      app.inject({ method: 'POST', url: '/v1/page', headers: { authorization: `Bearer ${browserKey}`, origin }, payload: { anonymousId: `visitor-${n}`, messageId: `page-${n}` } });

    expect((await page('https://elsewhere.example', 1)).statusCode).toBe(403);
    expect(await subject.repos.apiKeys.lastBrowserUse(workspaceId)).toBeUndefined();
    expect((await page(SHOP, 2)).statusCode).toBe(200);
    for (let attempt = 0; attempt < 50 && !(await doneSteps()).includes('tracking_script'); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const seen = await setup();
    expect(seen.steps.find((s) => s.key === 'tracking_script')).toMatchObject({ done: true, explanation: `The tag with the browser key “web” sent events from ${SHOP} just now.` });
    expect(await doneSteps()).toEqual(['tracking_script', 'events']);

    // Another origin in place of the shop's: the tag is no longer counted.
    await owner('PATCH', `${ws}/settings`, { allowedOrigins: ['https://www.fern.example'] });
    expect((await setup()).steps.find((s) => s.key === 'tracking_script')).toMatchObject({ done: false, explanation: expect.stringContaining('no longer an allowed origin') });
    await owner('PATCH', `${ws}/settings`, { allowedOrigins: [SHOP] });
  });

  it('follows the connection, the pixel, the rules and the first delivered conversion, then holds the match rate to 60%', async () => {
    await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/tiktok`, { accessToken: 'act.a-secret-events-api-token-123456', pixelCode: 'CIDGJS3C77U7QBTMVDP0' });
    expect((await owner('PUT', `${ws}/rules/purchase`, {})).statusCode).toBe(200);
    expect(await doneSteps()).toEqual(['tracking_script', 'events', 'tiktok', 'pixel', 'rule']);

    const key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json().key as string;
    const purchases = (from: number, count: number) =>
      app.inject({
        method: 'POST',
        url: '/v1/batch',
        headers: { authorization: `Bearer ${key}` },
        payload: { batch: Array.from({ length: count }, (_, i) => ({ type: 'track', messageId: `order-${from + i}`, event: 'purchase', userId: `u-${from + i}`, properties: { order_id: `F-${from + i}`, total: 10 } })) },
      });
    // A test conversion is not a first delivery.
    await purchases(1, 1);
    await testDb.db('conversions').where({ workspace_id: workspaceId }).update({ test_mode: true });
    await deliverPending(['ttclid', 'email']);
    expect(await doneSteps()).not.toContain('first_delivery');

    // 2 of 5 carried a click ID, email or phone: 40%.
    await purchases(10, 2);
    await deliverPending(['ttclid', 'external_id', 'ip', 'user_agent']);
    await purchases(20, 3);
    await deliverPending(['external_id', 'ttp']);
    const below = await setup();
    expect(below.steps.find((s) => s.key === 'first_delivery')).toMatchObject({ done: true, explanation: 'The first, a CompletePayment, reached TikTok just now.' });
    expect(below.steps.find((s) => s.key === 'match_rate')).toMatchObject({ done: false, explanation: expect.stringMatching(/^Only 40% of the conversions delivered in the last 7 days/) });
    expect(below).toMatchObject({ done: 6, complete: false });

    // 5 of 8: 62.5%.
    await purchases(30, 3);
    await deliverPending(['phone']);
    const complete = await setup();
    expect(complete.steps.find((s) => s.key === 'match_rate')).toMatchObject({ done: true, explanation: '63% of the conversions delivered in the last 7 days carried a click ID, email or phone.' });
    expect(complete).toMatchObject({ done: 7, complete: true });
  });

  it('refuses a person of another workspace', async () => {
    const otherWorkspace = await createWorkspace(app, 'Tea house');
    const stranger = asPerson(app, await personIn(app, otherWorkspace, 'tea@tea.example', 'owner'));
    expect((await stranger('GET', `${ws}/setup`)).statusCode).toBe(404);
  });
});

describe('the estimated match quality on the overview', () => {
  it('scores each TikTok event from the keys its delivered conversions carried, with the most useful key to add', async () => {
    const { from, to } = daysOf(await testDb.db('conversions').where({ workspace_id: workspaceId }).pluck('event_time'));
    const overview = (await owner('GET', `${ws}/overview?from=${from}&to=${to}`)).json();
    // Of 8 delivered (the test conversion left out): ttclid 2, phone 3, external_id 5, ttp 3, IP and user agent 2, email none.
    const score = (2 * 2 + 2 * 3 + 1 * 5 + 1 * 3 + 0.5 * 2 + 0.5 * 2) / 8;
    expect(overview.matchQuality.points[0]).toEqual({ key: 'email', points: 2.5 });
    expect(overview.matchQuality.events).toEqual([{ tiktokEvent: 'CompletePayment', source: 'web', delivered: 8, sampleLimit: 2000, estimate: { score, keyToAdd: { key: 'email', missingShare: 1, points: 2.5 } } }]);
    expect(score).toBe(2.5);
  });
});
