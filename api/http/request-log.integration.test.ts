import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import type { MailSink } from '../../devstack/mail-sink';
import { FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET, startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { startTestIngestServer } from '../../test/helpers/ingest-server';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { sessionCookieOf } from '../../test/helpers/console-client';
import { linkIn, startTestMailSink } from '../../test/helpers/mail-sink';
import type { RunningIngest } from '../server';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../../test/helpers/test-app';

const SHOP_ORIGIN = 'https://shop.example';

let testDb: TestDatabase;
let sink: MailSink;
let tiktok: FakeTikTok;
let ingest: RunningIngest;
const logLines: string[] = [];
let workspaceId: string;
let secretKey: string;
let browserKey: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startTestMailSink();
  tiktok = await startFakeTikTok();
  const repos = createRepositories(testDb.db, createSecretBox(TEST_SECRET_KEY));
  const workspace = await repos.workspaces.create('Logged shop');
  workspaceId = workspace.id;
  await repos.workspaces.updateSettings(workspace.id, { allowedOrigins: [SHOP_ORIGIN] });
  secretKey = (await repos.apiKeys.create(workspace.id, 'backend')).key;
  browserKey = (await repos.apiKeys.create(workspace.id, 'site', 'browser')).key;
  // The most talkative level, so that nothing a lower level would log escapes the scan; mail and TikTok's OAuth set
  // up, so that every route that carries a token works as in production.
  ingest = await startTestIngestServer(testDb.url, {
    env: {
      LOG_LEVEL: 'trace',
      SMTP_URL: sink.url,
      TIKTOK_API_URL: tiktok.url,
      TIKTOK_APP_ID: FAKE_TIKTOK_APP_ID,
      TIKTOK_APP_SECRET: FAKE_TIKTOK_APP_SECRET,
      TIKTOK_AUTH_URL: `${tiktok.url}/portal/auth`,
    },
    logDestination: { write: (line: string) => logLines.push(line) },
  });
});
afterAll(async () => {
  await ingest?.close();
  await tiktok?.close();
  await sink?.close();
  await testDb?.destroy();
});

async function send(path: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(`${ingest.url}${path}`, init);
  await response.arrayBuffer();
  return response.status;
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const event = (messageId: string) => ({ type: 'track', event: 'page_scrolled', anonymousId: 'visitor-1', messageId });

describe('the request log of the ingest process', () => {
  it('holds none of the credentials a run of requests carried: in query strings, paths, headers or bodies', async () => {
    const oneTime = {
      token: 'tok-7f3a9c1e5b2d4f60',
      apiKey: 'apikey-52c8e1f0a9b34d77',
      accessToken: 'act-9e2b6c1d8f0a3e44',
      authCode: 'authcode-3c5e7a9b1d2f4e66',
      state: 'state-8b1d3f5a7c9e2b40',
      cookie: 'session-1a3c5e7b9d2f4a68',
      headerKey: 'xapikey-6d8f0b2c4e1a3c55',
    };
    const basic = `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`;
    const statuses = [
      await send('/v1/batch', json({ batch: [event('m-1')] }, { authorization: `Bearer ${secretKey}` })),
      await send('/v1/track', json(event('m-2'), { authorization: basic })),
      await send(`/v1/track?writeKey=${browserKey}`, json(event('m-3'), { origin: SHOP_ORIGIN })),
      await send('/v1/t', json({ ...event('m-4'), writeKey: browserKey }, { origin: SHOP_ORIGIN, 'content-type': 'text/plain' })),
      await send(`/v1/batch?writeKey=${secretKey}`, json({ batch: [event('m-5')] })),
      await send(`/v1/batch/${secretKey}`, json({ batch: [event('m-6')] })),
      await send(`/readyz?token=${oneTime.token}&api_key=${oneTime.apiKey}`),
      await send(`/v1/batch?access_token=${oneTime.accessToken}`, json({ batch: [event('m-7')] }, { authorization: `Bearer ${secretKey}`, cookie: `sbx_session=${oneTime.cookie}`, 'x-api-key': oneTime.headerKey })),
      await send('/admin/workspaces', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }),
      await send(`/oauth/tiktok/callback?auth_code=${oneTime.authCode}&state=${oneTime.state}`),
    ];

    expect(statuses).toEqual([200, 200, 200, 200, 403, 404, 200, 200, 200, 400]);
    const log = logLines.join('');
    expect(log).toContain('/v1/batch?writeKey=[redacted]'); // the requests were logged, with their URLs
    for (const secret of [secretKey, browserKey, TEST_ADMIN_TOKEN, basic.slice('Basic '.length), ...Object.values(oneTime)]) {
      expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
    }
  });
});

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** The value that follows `marker` in a mailed link, e.g. the token after `/reset-password/`. */
const tokenAfter = (link: string, marker: string) => decodeURIComponent(link.split(marker)[1] as string);

describe('the request log of the routes that carry a token', () => {
  it('holds no invitation, password reset, OAuth or session token, on success or refusal, in pages or the API', async () => {
    const password = 'amber falcon river stone';
    const owner = { email: 'owner@logged.example', password };
    expect(await send(`/admin/workspaces/${workspaceId}/members`, json({ ...owner, role: 'owner' }, ADMIN))).toBe(201);
    const signedIn = await fetch(`${ingest.url}/console/api/session`, json(owner));
    const session = { cookie: sessionCookieOf(signedIn.headers.getSetCookie()), csrfToken: ((await signedIn.json()) as { csrfToken: string }).csrfToken };
    const asOwner = { cookie: session.cookie, 'x-csrf-token': session.csrfToken };

    // An invitation: mailed, its link opened, looked at, accepted, then opened again.
    expect(await send(`/console/api/workspaces/${workspaceId}/invitations`, json({ email: 'new@logged.example', role: 'viewer' }, asOwner))).toBe(201);
    const invitation = tokenAfter(linkIn((await sink.waitFor((mail) => mail.to.includes('new@logged.example'))).text), '/invitations/');
    const acceptPassword = 'violet canyon meadow lamp';
    const invitationStatuses = [
      await send(`/console/api/invitations/${invitation}`),
      await send(`/console/api/invitations/${invitation}/accept`, json({ password: acceptPassword, name: 'New viewer' })),
      await send(`/console/api/invitations/${invitation}`),
      await send(`/console/api/invitations/${invitation}/accept`, json({ password: acceptPassword })),
    ];
    expect(invitationStatuses).toEqual([200, 200, 410, 410]);

    // A password reset: mailed, its link opened, checked, used, then used again.
    expect(await send('/console/api/password-resets', json({ email: owner.email }))).toBe(202);
    const reset = tokenAfter(linkIn((await sink.waitFor((mail) => mail.to.includes(owner.email) && mail.text.includes('/reset-password/'))).text), '/reset-password/');
    const newPassword = 'silver orchard quiet tide';
    const resetStatuses = [
      await send(`/console/api/password-resets/${reset}`),
      await send(`/console/api/password-resets/${reset}`, json({ newPassword })),
      await send(`/console/api/password-resets/${reset}`),
      await send(`/console/api/password-resets/${reset}`, json({ newPassword })),
    ];
    expect(resetStatuses).toEqual([200, 200, 404, 404]);

    // The console's pages that the mailed links open (answered whether or not the console is built).
    for (const page of [`/console/invitations/${invitation}`, `/console/reset-password/${reset}`]) expect(await send(page, { headers: { accept: 'text/html' } })).toBeLessThan(600);

    // TikTok's OAuth: the owner's browser comes back with auth_code (or code) and state, by the callback and the CLI's route.
    async function authorize(): Promise<{ authCode: string; state: string }> {
      const answer = await fetch(`${ingest.url}/admin/workspaces/${workspaceId}/tiktok/oauth/authorize`, { method: 'POST', headers: ADMIN });
      const { url } = (await answer.json()) as { url: string };
      const approved = await fetch(url, { redirect: 'manual' });
      const back = new URL(approved.headers.get('location') as string).searchParams;
      return { authCode: back.get('auth_code') as string, state: back.get('state') as string };
    }
    const first = await authorize();
    const second = await authorize();
    const third = await authorize();
    const oauthStatuses = [
      await send(`/oauth/tiktok/callback?auth_code=${first.authCode}&state=${first.state}`, { headers: { accept: 'text/html' } }),
      await send(`/oauth/tiktok/callback?auth_code=${first.authCode}&state=${first.state}`),
      await send(`/oauth/tiktok/callback?code=${encodeURIComponent(second.authCode)}&state=${encodeURIComponent(second.state)}`),
      await send(`/admin/workspaces/${workspaceId}/tiktok/oauth/callback`, json({ authCode: third.authCode, state: third.state }, ADMIN)),
    ];
    expect(oauthStatuses).toEqual([200, 400, 200, 200]); // the second: state_reused

    // Every request was logged, with the token's place kept and its value hidden.
    const log = logLines.join('');
    for (const redacted of [
      '/console/api/invitations/[redacted]/accept',
      '/console/api/password-resets/[redacted]',
      '/console/invitations/[redacted]',
      '/console/reset-password/[redacted]',
      '/oauth/tiktok/callback?code=[redacted]&state=[redacted]',
    ]) {
      expect(log).toContain(redacted);
    }
    const secrets = {
      invitation,
      reset,
      ...Object.fromEntries([first, second, third].flatMap(({ authCode, state }, index) => [[`authCode${index}`, authCode], [`state${index}`, state], [`stateSignature${index}`, state.split('.').pop()]])),
      sessionCookie: session.cookie.split('=')[1],
      csrfToken: session.csrfToken,
      password,
      acceptPassword,
      newPassword,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect({ name, secret, found: log.includes(secret as string) }).toEqual({ name, secret, found: false });
    }
  });
});

describe('the log line of a request the database refused', () => {
  it("carries PostgreSQL's SQLSTATE, message and constraint, never the refused row its detail quotes", async () => {
    // Stands for any refusal validation did not foresee; PostgreSQL's detail then quotes the whole row ("Failing row contains (…)").
    await testDb.db.raw("ALTER TABLE events ADD CONSTRAINT refuses_one_name CHECK (event_name IS DISTINCT FROM 'refused_by_storage')");
    try {
      const refused = { ...event('m-refused'), event: 'refused_by_storage', context: { traits: { email: 'refused.person@example.com' } } };
      expect(await send('/v1/batch', json({ batch: [refused] }, { authorization: `Bearer ${secretKey}` }))).toBe(503);
    } finally {
      await testDb.db.raw('ALTER TABLE events DROP CONSTRAINT refuses_one_name');
    }

    const lines = logLines.join('').split('\n').filter((line) => line.includes('the database refused a request that passed validation'));
    expect(lines).toHaveLength(1);
    expect(logLines.join('')).not.toContain('refused.person@example.com');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 50,
      database: {
        sqlstate: '23514',
        message: expect.stringMatching(/^new row for relation "events_\d{8}" violates check constraint "refuses_one_name"$/),
        table: expect.stringMatching(/^events_\d{8}$/),
        constraint: 'refuses_one_name',
      },
    });
  });
});
