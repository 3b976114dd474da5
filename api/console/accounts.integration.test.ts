import type { FastifyInstance } from 'fastify';
import { changeLogPageView } from '../../contract/change-log-views';
import { liveSessionsView } from '../../contract/team-views';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { declared } from '../../test/helpers/declared-answer';
import { buildTestApp, publicLinkPattern } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn, sessionCookieOf, signIn, TEST_PASSWORD } from '../../test/helpers/console-client';

let testDb: TestDatabase;
let app: FastifyInstance;
let workspaceId: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = buildTestApp(testDb.db, { server: { trustProxy: true } }).app;
  workspaceId = await createWorkspace(app, 'Fern shop');
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const changeLog = (actions: string[]) => testDb.db('change_log').where({ workspace_id: workspaceId }).whereIn('action', actions).orderBy('id');

describe('sign-in', () => {
  it('opens a server-side session behind an httpOnly, SameSite=Lax cookie, Secure when the request came over HTTPS', async () => {
    await personIn(app, workspaceId, 'ana@fern.example', 'owner');
    const plain = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'ANA@fern.example ', password: TEST_PASSWORD } });
    expect(plain.statusCode).toBe(200);
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(/^sbx_session=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/console; HttpOnly; SameSite=Lax$/);
    expect(plain.json()).toMatchObject({ user: { email: 'ana@fern.example' }, workspaces: [{ workspaceId, workspaceName: 'Fern shop', role: 'owner' }], csrfToken: expect.any(String) });
    const token = sessionCookieOf(plain.headers['set-cookie']).split('=')[1] as string;
    const rows = await testDb.db('console_sessions').select('token_hash');
    expect(JSON.stringify(rows)).not.toContain(token);

    const proxied = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'ana@fern.example', password: TEST_PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
    expect(String(proxied.headers['set-cookie'])).toContain('; Secure');
  });

  it('answers the same for an unknown address and a wrong password, and names bad fields', async () => {
    const wrong = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'ana@fern.example', password: 'not the password' }, remoteAddress: '10.1.0.1' });
    const unknown = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'nobody@fern.example', password: 'whatever it is' }, remoteAddress: '10.1.0.1' });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual(unknown.json());
    const bad = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'ana', password: '' } });
    expect(bad.json().issues).toEqual(['email must be an email address, e.g. jo@shop.example', 'password is required']);
  });

  it('limits failed sign-ins per account (even with the right password after) and per address', async () => {
    await personIn(app, workspaceId, 'bo@fern.example', 'viewer');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'bo@fern.example', password: `guess number ${attempt}` }, remoteAddress: `10.2.0.${attempt}` });
      expect(answer.statusCode).toBe(401);
    }
    const limited = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'bo@fern.example', password: TEST_PASSWORD }, remoteAddress: '10.2.1.1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('this account') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);

    for (let attempt = 0; attempt < 20; attempt += 1) {
      await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: `stranger${attempt}@fern.example`, password: 'some guess here' }, remoteAddress: '10.3.0.1' });
    }
    const fromAddress = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'ana@fern.example', password: TEST_PASSWORD }, remoteAddress: '10.3.0.1' });
    expect(fromAddress.statusCode).toBe(429);
    expect(fromAddress.json().message).toContain('this address');
    expect((await app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'ana@fern.example', password: TEST_PASSWORD }, remoteAddress: '10.3.0.2' })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('lists the person’s sessions, revokes one, and sends an ended session to sign in again', async () => {
    await personIn(app, workspaceId, 'cy@fern.example', 'editor');
    const laptop = await signIn(app, 'cy@fern.example');
    const phone = await signIn(app, 'cy@fern.example');
    const listed = liveSessionsView.parse((await asPerson(app, laptop)('GET', 'sessions')).json()).sessions;
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current)).toHaveLength(1);

    const phoneSession = (await asPerson(app, phone)('GET', 'session')).json().sessionId;
    expect((await asPerson(app, laptop)('DELETE', `sessions/${phoneSession}`)).json()).toEqual({ revoked: true });
    const ended = await asPerson(app, phone)('GET', `workspaces/${workspaceId}`);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual({ error: 'session_expired', message: 'your session has ended: sign in again' });
    expect((await app.inject({ method: 'GET', url: '/console/api/session' })).json().error).toBe('session_required');

    const other = await signIn(app, 'ana@fern.example');
    const otherSession = (await asPerson(app, other)('GET', 'session')).json().sessionId;
    expect((await asPerson(app, laptop)('DELETE', `sessions/${otherSession}`)).statusCode).toBe(404);

    await testDb.db('console_sessions').where({ id: (await asPerson(app, laptop)('GET', 'session')).json().sessionId }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await asPerson(app, laptop)('GET', 'session')).json().error).toBe('session_expired');
  });

  it('signs out', async () => {
    const person = await signIn(app, 'ana@fern.example');
    const out = await asPerson(app, person)('DELETE', 'session');
    expect(out.json()).toEqual({ signedOut: true });
    expect(String(out.headers['set-cookie'])).toMatch(/^sbx_session=;/);
    expect((await asPerson(app, person)('GET', 'session')).statusCode).toBe(401);
  });
});

describe('CSRF', () => {
  it('refuses a cookie write without the session’s token or from another site, and stores nothing', async () => {
    const person = await signIn(app, 'ana@fern.example');
    const url = `/console/api/workspaces/${workspaceId}/settings`;
    const none = await app.inject({ method: 'PATCH', url, payload: { attributionWindowDays: 9 }, headers: { cookie: person.cookie } });
    expect(none.statusCode).toBe(403);
    expect(none.json().error).toBe('csrf_token_invalid');
    const wrong = await app.inject({ method: 'PATCH', url, payload: { attributionWindowDays: 9 }, headers: { cookie: person.cookie, 'x-csrf-token': 'guessed' } });
    expect(wrong.json().error).toBe('csrf_token_invalid');
    const foreign = await asPerson(app, person)('PATCH', url, { attributionWindowDays: 9 }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect((await adminCall(app, 'GET', `/admin/workspaces/${workspaceId}`)).json().attributionWindowDays).toBe(30);
    expect((await asPerson(app, person)('PATCH', url, { attributionWindowDays: 9 })).json().attributionWindowDays).toBe(9);
  });
});

describe('roles', () => {
  it('lets a viewer read but not write, an editor change rules but not people or keys, an owner everything', async () => {
    const viewer = asPerson(app, await personIn(app, workspaceId, 'vi@fern.example', 'viewer'));
    const editor = asPerson(app, await personIn(app, workspaceId, 'ed@fern.example', 'editor'));
    const owner = asPerson(app, await signIn(app, 'ana@fern.example'));
    const ws = `workspaces/${workspaceId}`;

    expect((await viewer('GET', `${ws}/rules`)).statusCode).toBe(200);
    const refused = await viewer('PUT', `${ws}/rules/purchase`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('your role (viewer) cannot do this: it needs an editor or owner');
    expect((await viewer('PATCH', `${ws}/settings`, { testMode: false })).statusCode).toBe(403);
    expect((await viewer('POST', `${ws}/test-conversion`)).statusCode).toBe(403);

    expect((await editor('PUT', `${ws}/rules/purchase`, {})).statusCode).toBe(200);
    expect((await editor('POST', `${ws}/invitations`, { email: 'x@fern.example', role: 'viewer' })).json().message).toBe('your role (editor) cannot do this: it needs an owner');
    expect((await editor('POST', `${ws}/api-keys`, { name: 'backend' })).statusCode).toBe(403);
    const members = (await editor('GET', `${ws}/members`)).json();
    expect(members.invitations).toEqual([]);
    const viewerId = members.members.find((m: { email: string }) => m.email === 'vi@fern.example').id;
    expect((await editor('PATCH', `${ws}/members/${viewerId}`, { role: 'owner' })).statusCode).toBe(403);

    expect((await owner('PATCH', `${ws}/members/${viewerId}`, { role: 'editor' })).json()).toMatchObject({ role: 'editor' });
    expect((await owner('POST', `${ws}/api-keys`, { name: 'backend' })).statusCode).toBe(201);
  });

  it('keeps at least one owner', async () => {
    const solo = await createWorkspace(app, 'Solo shop');
    const owner = await personIn(app, solo, 'solo@fern.example', 'owner');
    const answer = await asPerson(app, owner)('PATCH', `workspaces/${solo}/members/${owner.userId}`, { role: 'viewer' });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toBe('last_owner');
  });
});

describe('invitations', () => {
  async function invite(email: string, role = 'editor') {
    const owner = asPerson(app, await signIn(app, 'ana@fern.example'));
    // A forged Host must not reach the link (it is built from PUBLIC_URL).
    const created = await owner('POST', `workspaces/${workspaceId}/invitations`, { email, role }, { host: 'attacker.example' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    return { ...body, token: (body.url as string).split('/invitations/')[1] as string };
  }

  it('is accepted once: a new person chooses a password and is signed in; the link then answers 410', async () => {
    const invitation = await invite('di@fern.example');
    expect(invitation.url).toMatch(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}'));
    const offered = await app.inject({ method: 'GET', url: `/console/api/invitations/${invitation.token}` });
    expect(declared('GET', '/console/api/invitations/:token', 200).parse(offered.json())).toMatchObject({
      email: 'di@fern.example',
      role: 'editor',
      workspaceName: 'Fern shop',
      password: 'current-or-choose',
    });

    const weak = await app.inject({ method: 'POST', url: `/console/api/invitations/${invitation.token}/accept`, payload: { password: 'di@fern.example1' } });
    expect(weak.json().issues).toEqual(['password must not contain your email address or its name part']);
    const short = await app.inject({ method: 'POST', url: `/console/api/invitations/${invitation.token}/accept`, payload: { password: 'short' } });
    expect(short.json().issues).toEqual(['password must be at least 12 characters']);
    expect(await testDb.db('users').where({ email: 'di@fern.example' }).first()).toBeUndefined();

    const accepted = await app.inject({ method: 'POST', url: `/console/api/invitations/${invitation.token}/accept`, payload: { password: TEST_PASSWORD, name: 'Di' } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().workspaces).toEqual([{ workspaceId, workspaceName: 'Fern shop', role: 'editor' }]);
    sessionCookieOf(accepted.headers['set-cookie']);

    const reused = await app.inject({ method: 'POST', url: `/console/api/invitations/${invitation.token}/accept`, payload: { password: TEST_PASSWORD } });
    expect(reused.statusCode).toBe(410);
    expect(reused.json().error).toBe('invitation_used');
  });

  it('expires, can be withdrawn, and an unknown link is not found', async () => {
    const expiring = await invite('el@fern.example');
    await testDb.db('invitations').where({ id: expiring.id }).update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await app.inject({ method: 'POST', url: `/console/api/invitations/${expiring.token}/accept`, payload: { password: TEST_PASSWORD } });
    expect([expired.statusCode, declared('POST', '/console/api/invitations/:token/accept', 410).parse(expired.json())]).toEqual([410, expect.objectContaining({ error: 'invitation_expired' })]);

    const withdrawn = await invite('fi@fern.example');
    const owner = asPerson(app, await signIn(app, 'ana@fern.example'));
    expect((await owner('DELETE', `workspaces/${workspaceId}/invitations/${withdrawn.id}`)).statusCode).toBe(200);
    const revoked = await app.inject({ method: 'GET', url: `/console/api/invitations/${withdrawn.token}` });
    expect([revoked.statusCode, declared('GET', '/console/api/invitations/:token', 410).parse(revoked.json())]).toEqual([410, expect.objectContaining({ error: 'invitation_revoked' })]);
    expect((await app.inject({ method: 'GET', url: '/console/api/invitations/not-a-real-token' })).statusCode).toBe(404);
  });

  it('lets a person with an account join with their own password', async () => {
    const invitation = await invite('ana@fern.example', 'viewer');
    const other = await createWorkspace(app, 'Second shop');
    const owner2 = await personIn(app, other, 'gu@fern.example', 'owner');
    const created = await asPerson(app, owner2)('POST', `workspaces/${other}/invitations`, { email: 'ana@fern.example', role: 'viewer' });
    const token = (created.json().url as string).split('/invitations/')[1];
    expect((await app.inject({ method: 'GET', url: `/console/api/invitations/${token}` })).json().password).toBe('current-or-choose');
    expect((await app.inject({ method: 'POST', url: `/console/api/invitations/${token}/accept`, payload: { password: 'not her password' } })).statusCode).toBe(400);
    const joined = await app.inject({ method: 'POST', url: `/console/api/invitations/${token}/accept`, payload: { password: TEST_PASSWORD } });
    expect(joined.json().workspaces.map((w: { workspaceName: string }) => w.workspaceName)).toEqual(['Fern shop', 'Second shop']);
    expect(invitation.id).toBeDefined();
  });
});

describe('change log', () => {
  it('records console and settings-API writes with who, what, before and after, never a secret, and nothing for a refused change', async () => {
    const editor = asPerson(app, await signIn(app, 'ed@fern.example'));
    const ws = `workspaces/${workspaceId}`;
    await editor('PUT', `${ws}/rules/lead`, { value: { source: 'fixed', amount: 25, currency: 'usd' } });
    await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/conversion-rules/lead`, { value: { source: 'fixed', amount: 30, currency: 'USD' } });
    const before = await testDb.db('change_log').where({ workspace_id: workspaceId }).count<{ count: string }[]>({ count: '*' });
    const refused = await editor('PUT', `${ws}/rules/lead`, { value: { source: 'fixed', amount: -1, currency: 'USD' } });
    expect(refused.json().issues).toEqual(['value.amount must be a positive number']);
    const after = await testDb.db('change_log').where({ workspace_id: workspaceId }).count<{ count: string }[]>({ count: '*' });
    expect(after).toEqual(before);

    const entries = await changeLog(['rule.put']).where({ target: 'lead' });
    const editorId = (await testDb.db('users').where({ email: 'ed@fern.example' }).first())?.id;
    expect(entries.map((e) => [e.actor, e.before, e.after])).toEqual([
      [`user:${editorId}`, null, { event: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: [], value: { source: 'fixed', amount: 25, currency: 'USD' }, serverOnly: false, destination: 'auto' }],
      ['operator', { event: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: [], value: { source: 'fixed', amount: 25, currency: 'USD' }, serverOnly: false, destination: 'auto' }, { event: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: [], value: { source: 'fixed', amount: 30, currency: 'USD' }, serverOnly: false, destination: 'auto' }],
    ]);

    const key = (await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'ops' })).json();
    await adminCall(app, 'PATCH', `/admin/workspaces/${workspaceId}/settings`, { testMode: true, testEventCode: 'TEST12345' });
    const token = 'act.a-secret-events-api-token-123456';
    await adminCall(app, 'PUT', `/admin/workspaces/${workspaceId}/tiktok`, { accessToken: token, pixelCode: 'CIDGJS3C77U7QBTMVDP0' });
    const logged = await changeLog(['key.create', 'settings.update', 'tiktok.connect']);
    expect(logged.map((e) => [e.actor, e.action])).toEqual(expect.arrayContaining([['operator', 'key.create'], ['operator', 'settings.update'], ['operator', 'tiktok.connect']]));
    expect(logged.find((e) => e.action === 'settings.update' && e.actor === 'operator')).toMatchObject({ before: { testMode: false, testEventCode: null }, after: { testMode: true, testEventCode: 'TEST12345' } });
    const text = JSON.stringify(await testDb.db('change_log'));
    expect(text).not.toContain(key.key);
    expect(text).not.toContain(token);

    const shown = changeLogPageView.parse((await editor('GET', `${ws}/change-log?limit=3`)).json());
    expect(shown.entries).toHaveLength(3);
    expect(shown.entries[0]).toMatchObject({ action: 'tiktok.connect', actorName: 'an operator (settings API)', summary: 'Connected TikTok with a token from Events Manager' });
    expect(shown.nextBeforeId).toEqual(expect.any(String));
    const ruleEntry = (await editor('GET', `${ws}/change-log?limit=200`)).json().entries.find((e: { actor: string }) => e.actor === `user:${editorId}`);
    expect(ruleEntry).toMatchObject({
      actorName: 'ed@fern.example',
      summary: 'Added the rule `lead` → SubmitForm, worth 25 USD',
      changes: expect.arrayContaining([{ field: 'TikTok event', before: '–', after: 'SubmitForm' }]),
    });
  });
});
