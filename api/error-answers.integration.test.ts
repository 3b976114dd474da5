import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ALL_ROUTES } from '../contract';
import type { RouteContract, SecuritySchemeName } from '../contract/route';
import { trackingScriptFrom } from './ingest/tracking-script';
import { takeContractMismatches } from '../test/helpers/contract-answers';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { adminCall, createWorkspace, personIn, type Person } from '../test/helpers/console-client';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../test/helpers/test-app';

/**
 * Walks the error paths of every route the OpenAPI document lists, each answer checked against the document by
 * buildTestApp's check (test/helpers/contract-answers.ts): no credentials, a workspace that is not the caller's, a body
 * that is not what the route takes (or no JSON, another type, too large), the console's refusals of writes, IDs that
 * do not exist, and the conflicts the state of a workspace gives.
 */

let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
/** A workspace with an owner and a viewer; no TikTok connection. */
let workspaceId: string;
/** Connected to TikTok with a manual token and no advertiser. */
let connectedId: string;
/** Another workspace, which `owner` is not in. */
let othersId: string;
let owner: Person;
let viewer: Person;
let connectedOwner: Person;
let writeKey: string;

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const json = { 'content-type': 'application/json' };
/** Fastify's default body limit, which every route but ingest's keeps. */
const BODY_LIMIT = 1_048_576;
const UNKNOWN: Record<string, string> = {
  conversionId: randomUUID(),
  keyId: 'key_unknown',
  event: 'Never Sent',
  sourceId: 'src_unknown',
  userId: 'user_unknown',
  invitationId: 'invitation_unknown',
  sessionId: 'session_unknown',
  token: 'an-unknown-token',
  key: 'pk_unknown',
  file: 'swagger-ui.css',
};

const uses = (route: RouteContract, scheme: SecuritySchemeName) => route.security.some((set) => set.includes(scheme));
const readsBody = (route: RouteContract) => route.method !== 'GET';
const inWorkspace = (route: RouteContract) => route.path.includes('/workspaces/:workspaceId');
const isConsoleApi = (route: RouteContract) => route.path.startsWith('/console/api/');
/** Ingest and webhook deliveries read any Content-Type, with limits and refusals of their own (walked apart). */
const isIngest = (route: RouteContract) => route.path.startsWith('/v1/');
/** A route whose body is a file (an import: CSV or NDJSON), with its own limit and refusals (its own tests). */
const readsFile = (route: RouteContract) => route.bodyContentType !== undefined && route.bodyContentType !== 'application/json';

/** The route's path with `workspace` for `:workspaceId` and an ID that does not exist for every other parameter. */
function urlOf(route: RouteContract, workspace: string): string {
  return route.path
    .replace(':workspaceId', workspace)
    .replace(/:(\w+)/g, (_all, name: string) => encodeURIComponent(UNKNOWN[name] ?? `unknown-${name}`))
    .replace(/\*$/, 'missing');
}

/** The credentials a route takes, as the caller given has them. */
function credentials(route: RouteContract, person: Person = owner): Record<string, string> {
  if (uses(route, 'adminToken')) return admin;
  if (uses(route, 'consoleSession')) return { cookie: person.cookie, 'x-csrf-token': person.csrfToken };
  if (uses(route, 'writeKeyBearer')) return { authorization: `Bearer ${writeKey}` };
  return {};
}

interface Outcome {
  route: string;
  status: number;
  body: string;
}

/** Sends the request; what the document does not declare of its answer is recorded by the check and failed at once. */
async function send(options: InjectOptions): Promise<{ statusCode: number; body: string }> {
  const answer = await app.inject(options);
  expect(takeContractMismatches()).toEqual([]);
  return answer;
}

/** Each route's answer to the request `request` makes of it, where its status is not `expected`. */
async function unexpected(routes: readonly RouteContract[], expected: number, request: (route: RouteContract) => InjectOptions): Promise<Outcome[]> {
  expect(routes.length).toBeGreaterThan(0);
  const outcomes: Outcome[] = [];
  for (const route of routes) {
    const answer = await send(request(route));
    if (answer.statusCode !== expected) outcomes.push({ route: `${route.method} ${route.path}`, status: answer.statusCode, body: answer.body.slice(0, 300) });
  }
  return outcomes;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db, { trackingScript: trackingScriptFrom(Buffer.from('/* signalbox */')) });
  app = subject.app;
  app.get('/not-in-the-contract', async () => ({ ok: true }));
  await app.ready();
  workspaceId = await createWorkspace(app, 'Walked shop');
  othersId = await createWorkspace(app, 'Other shop');
  connectedId = await createWorkspace(app, 'Connected shop');
  owner = await personIn(app, workspaceId, 'owner@walked-shop.example', 'owner');
  viewer = await personIn(app, workspaceId, 'viewer@walked-shop.example', 'viewer');
  connectedOwner = await personIn(app, connectedId, 'owner@connected-shop.example', 'owner');
  expect((await adminCall(app, 'PUT', `/admin/workspaces/${connectedId}/tiktok`, { accessToken: 'act.a-walked-token', pixelCode: 'CWALKEDPIXEL01' })).statusCode).toBe(200);
  writeKey = (await subject.repos.apiKeys.create(workspaceId, 'backend')).key;
  takeContractMismatches();
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

it('checks the answers of the app it walks: one from a route the document does not list is recorded', async () => {
  expect((await app.inject({ method: 'GET', url: '/not-in-the-contract' })).statusCode).toBe(200);
  expect(takeContractMismatches()).toEqual(['GET /not-in-the-contract: came from GET /not-in-the-contract, which the document does not list']);
});

it('answers 401 without credentials, on every route that needs them', async () => {
  const secured = ALL_ROUTES.filter((route) => route.security.length > 0);
  expect(await unexpected(secured, 401, (route) => ({ method: route.method, url: urlOf(route, workspaceId) }))).toEqual([]);
});

it('answers 404 for a workspace that does not exist, or that the person is not in', async () => {
  const settings = ALL_ROUTES.filter((route) => inWorkspace(route) && uses(route, 'adminToken'));
  expect(await unexpected(settings, 404, (route) => ({ method: route.method, url: urlOf(route, 'ws_unknown'), headers: admin }))).toEqual([]);
  const console = ALL_ROUTES.filter((route) => inWorkspace(route) && isConsoleApi(route));
  expect(await unexpected(console, 404, (route) => ({ method: route.method, url: urlOf(route, othersId), headers: credentials(route) }))).toEqual([]);
});

describe('a request body the route cannot take', () => {
  const writes = () => ALL_ROUTES.filter((route) => readsBody(route) && !isIngest(route) && !readsFile(route));
  const request = (route: RouteContract, payload: string, headers: Record<string, string>): InjectOptions => ({
    method: route.method,
    url: urlOf(route, workspaceId),
    payload,
    headers: { ...credentials(route), ...headers },
  });

  it('answers 400 naming the field for a body of the wrong shape', async () => {
    const withBody = writes().filter((route) => route.body !== undefined);
    const outcomes: Outcome[] = [];
    for (const route of withBody) {
      const answer = await send(request(route, '[1]', json));
      const issues = answer.statusCode === 400 ? (JSON.parse(answer.body) as { issues?: string[] }).issues : undefined;
      if (issues === undefined || issues.length === 0) outcomes.push({ route: `${route.method} ${route.path}`, status: answer.statusCode, body: answer.body.slice(0, 300) });
    }
    expect(outcomes).toEqual([]);
  });

  it('answers 400 for a body that is not JSON, on every route that reads a body', async () => {
    expect(await unexpected(writes(), 400, (route) => request(route, '{"name":', json))).toEqual([]);
  });

  it('answers 415 for a body of another Content-Type, and 413 for one over the limit', async () => {
    expect(await unexpected(writes(), 415, (route) => request(route, 'name=Shop', { 'content-type': 'application/x-www-form-urlencoded' }))).toEqual([]);
    expect(await unexpected(writes(), 413, (route) => request(route, JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) }), json))).toEqual([]);
  });

  it('answers ingest\'s own: 400 for a body that is not JSON, 415 for an unknown Content-Encoding, 413 past the batch limit', async () => {
    const batch = { method: 'POST' as const, url: '/v1/batch', headers: { authorization: `Bearer ${writeKey}`, ...json } };
    expect((await send({ ...batch, payload: '{"batch":' })).statusCode).toBe(400);
    expect((await send({ ...batch, payload: '{"batch":[]}', headers: { ...batch.headers, 'content-encoding': 'br' } })).statusCode).toBe(415);
    expect((await send({ ...batch, payload: JSON.stringify({ batch: [{ type: 'track', event: 'x'.repeat(6 * BODY_LIMIT) }] }) })).statusCode).toBe(413);
  });
});

describe('the console refuses a write', () => {
  const writes = () => ALL_ROUTES.filter((route) => isConsoleApi(route) && route.method !== 'GET');

  it('without the session\'s CSRF token (403)', async () => {
    const signedIn = writes().filter((route) => uses(route, 'csrfToken'));
    expect(await unexpected(signedIn, 403, (route) => ({ method: route.method, url: urlOf(route, workspaceId), headers: { cookie: owner.cookie } }))).toEqual([]);
  });

  it('from a page of another site, signed in or not (403)', async () => {
    const foreign = { origin: 'https://elsewhere.example' };
    expect(await unexpected(writes(), 403, (route) => ({ method: route.method, url: urlOf(route, workspaceId), headers: { ...credentials(route), ...foreign } }))).toEqual([]);
  });

  it('beyond the person\'s role (403)', async () => {
    const needingARole = writes().filter((route) => inWorkspace(route) && /Needs an (editor|owner)/.test(route.description ?? ''));
    expect(await unexpected(needingARole, 403, (route) => ({ method: route.method, url: urlOf(route, workspaceId), headers: credentials(route, viewer) }))).toEqual([]);
  });
});

/** Requests each expected to answer `status`: the route as the document names it, the URL, and a body the route takes. */
type Probe = [status: number, method: InjectOptions['method'], url: string, payload?: object];

async function probed(probes: readonly Probe[], headers: (url: string) => Record<string, string>) {
  const outcomes: (Outcome & { expected: number })[] = [];
  for (const [expected, method, url, payload] of probes) {
    const answer = await send({ method, url, payload, headers: headers(url) });
    if (answer.statusCode !== expected) outcomes.push({ route: `${method} ${url}`, expected, status: answer.statusCode, body: answer.body.slice(0, 300) });
  }
  return outcomes;
}

const signedInAs = (person: Person) => ({ cookie: person.cookie, 'x-csrf-token': person.csrfToken });

it('answers 404 for what does not exist in the workspace', async () => {
  const settings = (rest: string) => `/admin/workspaces/${workspaceId}${rest}`;
  const report = '/tiktok/reports?level=campaign&from=2026-11-01&to=2026-11-07';
  expect(
    await probed(
      [
        [404, 'DELETE', settings('/api-keys/key_unknown')],
        [404, 'DELETE', settings('/conversion-rules/Never%20Sent')],
        [404, 'GET', settings('/conversion-rules/Never%20Sent/backfill')],
        [404, 'POST', settings('/conversion-rules/Never%20Sent/backfill'), { days: 1 }],
        [404, 'GET', settings(`/conversions/${UNKNOWN.conversionId}`)],
        [404, 'GET', settings('/sources/src_unknown')],
        [404, 'PATCH', settings('/sources/src_unknown'), { name: 'Renamed' }],
        [404, 'POST', settings('/sources/src_unknown/secret'), {}],
        [404, 'DELETE', settings('/sources/src_unknown')],
        [404, 'GET', settings('/tiktok')],
        [404, 'DELETE', settings('/tiktok')],
        [404, 'PUT', settings('/tiktok/app'), { appId: '7012345678' }],
        [404, 'GET', settings('/tiktok/advertisers')],
        [404, 'PUT', settings('/tiktok/advertiser'), { advertiserId: '7012345678901234567' }],
        [404, 'GET', settings('/tiktok/pixels')],
        [404, 'PUT', settings('/tiktok/pixel'), { pixelCode: 'CWALKEDPIXEL01' }],
        [404, 'GET', settings('/tiktok/offline-event-sets')],
        [404, 'PUT', settings('/tiktok/crm-event-set'), { eventSetId: '7012345678901234567' }],
        [404, 'POST', settings('/tiktok/stats/pull')],
        [404, 'GET', settings(report)],
      ],
      () => admin,
    ),
  ).toEqual([]);
  const console = (rest: string) => `/console/api/workspaces/${workspaceId}${rest}`;
  expect(
    await probed(
      [
        [404, 'DELETE', '/console/api/sessions/session_unknown'],
        [404, 'GET', '/console/api/invitations/an-unknown-token'],
        [404, 'POST', '/console/api/invitations/an-unknown-token/accept', { password: 'correct horse battery staple' }],
        [404, 'GET', '/console/api/password-resets/an-unknown-token'],
        [404, 'POST', '/console/api/password-resets/an-unknown-token', { newPassword: 'correct horse battery staple' }],
        [404, 'PATCH', console('/members/user_unknown'), { role: 'viewer' }],
        [404, 'DELETE', console('/members/user_unknown')],
        [404, 'DELETE', console('/invitations/invitation_unknown')],
        [404, 'GET', console(`/conversions/${UNKNOWN.conversionId}`)],
        [404, 'POST', console(`/conversions/${UNKNOWN.conversionId}/retry`)],
        [404, 'DELETE', console('/rules/Never%20Sent')],
        [404, 'POST', console('/rules/Never%20Sent/send-past'), { days: 1 }],
        [404, 'PATCH', console('/sources/src_unknown'), { name: 'Renamed' }],
        [404, 'POST', console('/sources/src_unknown/secret'), {}],
        [404, 'DELETE', console('/sources/src_unknown')],
        [404, 'DELETE', console('/api-keys/key_unknown')],
        [404, 'GET', console('/tiktok/advertisers')],
        [404, 'PUT', console('/tiktok/advertiser'), { advertiserId: '7012345678901234567' }],
        [404, 'GET', console('/tiktok/pixels')],
        [404, 'PUT', console('/tiktok/pixel'), { pixelCode: 'CWALKEDPIXEL01' }],
        [404, 'GET', console('/tiktok/crm-event-sets')],
        [404, 'PUT', console('/tiktok/offline-event-set'), { eventSetId: null }],
        [404, 'PUT', console('/tiktok/app'), { appId: '7012345678' }],
        [404, 'DELETE', console('/tiktok')],
        [404, 'GET', console('/ads/report?from=2026-11-01&to=2026-11-07')],
        [404, 'GET', console('/ads/report.csv?from=2026-11-01&to=2026-11-07')],
        [404, 'POST', console('/ads/pull')],
      ],
      () => signedInAs(owner),
    ),
  ).toEqual([]);
  expect(
    await probed(
      [
        [404, 'GET', '/js/v1/config/pk_unknown'],
        [404, 'POST', '/v1/webhooks/src_unknown', { id: 1 }],
      ],
      () => ({}),
    ),
  ).toEqual([]);
});

it('answers 409 where the workspace\'s state forbids the request, and 503 where this server lacks what it needs', async () => {
  // A conversion still pending, which cannot be sent again.
  expect((await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/Order%20Completed`, {})).statusCode).toBe(200);
  const batch = [{ type: 'track', event: 'Order Completed', userId: 'u-1', messageId: 'walked-1', properties: { total: 12, currency: 'EUR' } }];
  expect((await send({ method: 'POST', url: '/v1/batch', headers: { authorization: `Bearer ${writeKey}` }, payload: { batch } })).statusCode).toBe(200);
  const [pending] = await subject.repos.conversions.list(workspaceId, { limit: 1 });
  const settings = (workspace: string, rest: string) => `/admin/workspaces/${workspace}${rest}`;
  const console = (workspace: string, rest: string) => `/console/api/workspaces/${workspace}${rest}`;
  const report = '?level=campaign&from=2026-11-01&to=2026-11-07';
  const probes: Probe[] = [
    // Issue 43: the pixel of a connection whose advertiser is not chosen yet.
    [409, 'PUT', settings(connectedId, '/tiktok/pixel'), { pixelCode: 'CWALKEDPIXEL01' }],
    [409, 'GET', settings(connectedId, '/tiktok/pixels')],
    [409, 'POST', settings(connectedId, '/tiktok/stats/pull')],
    [409, 'GET', settings(connectedId, `/tiktok/reports${report}`)],
    [409, 'POST', settings(workspaceId, '/tiktok/test-conversion')],
    [409, 'POST', settings(workspaceId, '/alerts/test')],
    [409, 'PUT', console(connectedId, '/tiktok/pixel'), { pixelCode: 'CWALKEDPIXEL01' }],
    [409, 'GET', console(connectedId, '/tiktok/pixels')],
    [409, 'POST', console(connectedId, '/ads/pull')],
    [409, 'GET', console(connectedId, `/ads/report${report}`)],
    [409, 'GET', console(connectedId, `/ads/report.csv${report}`)],
    [409, 'POST', console(workspaceId, '/test-conversion')],
    [409, 'POST', console(workspaceId, '/alerts/test')],
    [409, 'POST', console(workspaceId, `/conversions/${pending?.id}/retry`)],
    // The workspace's only owner.
    [409, 'PATCH', console(workspaceId, `/members/${owner.userId}`), { role: 'viewer' }],
    [409, 'DELETE', console(workspaceId, `/members/${owner.userId}`)],
    // This server has no TikTok app for OAuth.
    [503, 'POST', settings(workspaceId, '/tiktok/oauth/authorize')],
    [503, 'POST', console(workspaceId, '/tiktok/authorize')],
  ];
  const headers = (url: string) => (url.startsWith('/admin/') ? admin : signedInAs(url.includes(connectedId) ? connectedOwner : owner));
  expect(await probed(probes, headers)).toEqual([]);
});
