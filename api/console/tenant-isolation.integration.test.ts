import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { createBatchRecorder } from '../ingest/record-batch';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn, type Person } from '../../test/helpers/console-client';

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
const routes: { method: string; url: string }[] = [];
let mine: string;
let theirs: string;
let me: Person;
const theirObjects: Record<string, string> = {};

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of ([] as string[]).concat(route.method)) {
      if (route.url.startsWith('/console/api/workspaces/:workspaceId') && method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  mine = await createWorkspace(app, 'Mine');
  theirs = await createWorkspace(app, 'Theirs');
  me = await personIn(app, mine, 'me@mine.example', 'owner');
  const them = await personIn(app, theirs, 'them@theirs.example', 'owner');

  theirObjects.keyId = (await adminCall(app, 'POST', `/admin/workspaces/${theirs}/api-keys`, { name: 'theirs' })).json().id;
  theirObjects.userId = them.userId;
  theirObjects.invitationId = (await asPerson(app, them)('POST', `workspaces/${theirs}/invitations`, { email: 'x@theirs.example', role: 'viewer' })).json().id;
  await adminCall(app, 'PUT', `/admin/workspaces/${theirs}/conversion-rules/purchase`, {});
  theirObjects.event = 'purchase';
  const workspace = await subject.repos.workspaces.find(theirs);
  const recorded = await subject.repos.conversionRules.list(theirs);
  expect(recorded).toHaveLength(1);
  const result = await createBatchRecorder(subject.repos)(
    workspace as NonNullable<typeof workspace>,
    [{ type: 'track', messageId: 'their-order', event: 'purchase', userId: 'their-user', properties: { order_id: 'T-1', total: 5 } }],
    { receivedAt: new Date() },
  );
  theirObjects.conversionId = result.conversions[0]?.id as string;
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const fill = (url: string, workspaceId: string) =>
  url
    .replace(':workspaceId', workspaceId)
    .replace(':keyId', theirObjects.keyId as string)
    .replace(':userId', theirObjects.userId as string)
    .replace(':invitationId', theirObjects.invitationId as string)
    .replace(':conversionId', theirObjects.conversionId as string)
    .replace(':event', theirObjects.event as string);

const QUERIES: Record<string, string> = {
  '/overview': '?from=2026-01-01&to=2026-01-07',
  '/ads/report': '?from=2026-01-01&to=2026-01-07',
  '/ads/report.csv': '?from=2026-01-01&to=2026-01-07',
};
const BODIES: Record<string, unknown> = {
  '/settings': { attributionWindowDays: 7 },
  '/tiktok/advertiser': { advertiserId: '123' },
  '/tiktok/pixel': { pixelCode: 'CPIXEL' },
  '/tiktok/app': { appId: '123' },
  '/api-keys': { name: 'stolen' },
  '/rules/:event': {},
  '/people/lookup': { kind: 'user_id', value: 'their-user' },
  '/members/:userId': { role: 'viewer' },
  '/invitations': { email: 'y@mine.example', role: 'viewer' },
};

function call(url: string, method: string) {
  const suffix = url.replace('/console/api/workspaces/:workspaceId', '');
  return asPerson(app, me)(method as InjectOptions['method'], `${fill(url, theirs)}${QUERIES[suffix] ?? ''}`, BODIES[suffix]);
}

describe('tenant isolation', () => {
  it('registers the console routes this test walks', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it("answers 404 for another workspace through every route, and changes nothing there", async () => {
    const before = await testDb.db('change_log').where({ workspace_id: theirs }).count<{ count: string }[]>({ count: '*' });
    for (const route of routes) {
      const answer = await call(route.url, route.method);
      expect([route.method, route.url, answer.statusCode, answer.json()]).toEqual([route.method, route.url, 404, { error: 'not_found', message: `workspace ${theirs} does not exist` }]);
    }
    expect(await testDb.db('change_log').where({ workspace_id: theirs }).count<{ count: string }[]>({ count: '*' })).toEqual(before);
    expect(await testDb.db('api_keys').where({ workspace_id: theirs, name: 'stolen' }).first()).toBeUndefined();
  });

  it("answers 404 for another workspace's key, conversion, member, invitation and rule reached through one's own workspace", async () => {
    const ws = `workspaces/${mine}`;
    const own = asPerson(app, me);
    const answers = await Promise.all([
      own('DELETE', `${ws}/api-keys/${theirObjects.keyId}`),
      own('GET', `${ws}/conversions/${theirObjects.conversionId}`),
      own('PATCH', `${ws}/members/${theirObjects.userId}`, { role: 'viewer' }),
      own('DELETE', `${ws}/members/${theirObjects.userId}`),
      own('DELETE', `${ws}/invitations/${theirObjects.invitationId}`),
      own('DELETE', `${ws}/rules/${theirObjects.event}`),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await own('GET', `${ws}/conversions?q=their-user`)).json().conversions).toEqual([]);
    expect((await own('POST', `${ws}/people/lookup`, { kind: 'user_id', value: 'their-user' })).json()).toMatchObject({ found: false, events: [], conversions: [] });
    expect((await subject.repos.apiKeys.list(theirs))[0]?.revokedAt).toBeNull();
    expect(await subject.repos.conversionRules.find(theirs, 'purchase')).toBeDefined();
  });
});
