/**
 * Issue 43, item 1: no account can be claimed before its owner proves the mailbox, and then handed a role by someone
 * else; and invitations are limited per inviter and per workspace. Two API processes over one database: one with a
 * mail server (the dev stack's sink), one without.
 */
import type { FastifyInstance } from 'fastify';
import type { MailSink } from '../../devstack/mail-sink';
import { reservePort } from '../../devstack/ports';
import { createMailer } from '../../notify/mailer';
import { declared } from '../../test/helpers/declared-answer';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { linkIn, startTestMailSink } from '../../test/helpers/mail-sink';
import { buildTestApp, publicLinkPattern } from '../../test/helpers/test-app';
import { adminCall, asPerson, createWorkspace, personIn, signIn, TEST_PASSWORD, type Person } from '../../test/helpers/console-client';
import { INVITATIONS_PER_INVITER, INVITATIONS_PER_WORKSPACE } from '../services/accounts/invitation-limits';

let testDb: TestDatabase;
let sink: MailSink;
/** An API process with a mail server, and one without (`SMTP_URL` unset). */
let mailed: FastifyInstance;
let unmailed: FastifyInstance;
let bigcorp: string;
let bigcorpOwner: Person;

const ATTACKER_PASSWORD = 'the attacker chose this one';
const OPERATOR_PASSWORD = 'the operator chose this one';
const OWNER_PASSWORD = 'the mailbox owner chose this';

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startTestMailSink();
  mailed = buildTestApp(testDb.db, { mailer: createMailer({ smtpUrl: sink.url, from: 'Signalbox <signalbox@test.example>' }) }).app;
  unmailed = buildTestApp(testDb.db).app;
  bigcorp = await createWorkspace(unmailed, 'Bigcorp');
  bigcorpOwner = await personIn(unmailed, bigcorp, 'boss@bigcorp.example', 'owner');
});
afterAll(async () => {
  await mailed.close();
  await unmailed.close();
  await sink.close();
  await testDb.destroy();
});

const invitePath = '/console/api/workspaces/:workspaceId/invitations';
const confirmedAt = async (email: string) => (await testDb.db('users').where({ email }).first('email_confirmed_at'))?.email_confirmed_at;
const tokenOf = (link: string) => link.split('/invitations/')[1] as string;
const offered = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: `/console/api/invitations/${token}` });
const accept = (app: FastifyInstance, token: string, payload: { password: string; name?: string }) => app.inject({ method: 'POST', url: `/console/api/invitations/${token}/accept`, payload });
const signInStatus = async (email: string, password: string) => (await unmailed.inject({ method: 'POST', url: '/console/api/session', payload: { email, password }, remoteAddress: '10.9.0.1' })).statusCode;
const membership = (workspaceId: string, email: string) =>
  testDb.db('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.workspace_id': workspaceId, 'u.email': email }).first('m.role');

/** Anyone signed in owns a workspace of their own: the attacker makes one, invites a victim's address there, and accepts the link shown. */
async function claimBeforeTheOwner(email: string): Promise<Person> {
  const someone = await personIn(unmailed, await createWorkspace(unmailed, 'Somewhere'), `mallory.${email.split('@')[0]}@evil.example`, 'viewer');
  const own = (await asPerson(unmailed, someone)('POST', 'workspaces', { name: 'Mallory shop' })).json().workspace.id as string;
  const invited = await asPerson(unmailed, someone)('POST', `workspaces/${own}/invitations`, { email, role: 'owner' });
  expect(invited.statusCode).toBe(201);
  expect(declared('POST', invitePath, 201).parse(invited.json())).toMatchObject({ delivery: 'shown', url: expect.stringMatching(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}')) });
  const accepted = await accept(unmailed, tokenOf(invited.json().url), { password: ATTACKER_PASSWORD, name: 'Marketing' });
  expect(accepted.statusCode).toBe(200);
  expect(await confirmedAt(email)).toBeNull();
  return signIn(unmailed, email, ATTACKER_PASSWORD);
}

describe('with a mail server', () => {
  it('mails the invitation and never answers its link; the mailed link makes a confirmed account', async () => {
    const created = await asPerson(mailed, bigcorpOwner)('POST', `workspaces/${bigcorp}/invitations`, { email: 'design@bigcorp.example', role: 'editor' });
    expect(created.statusCode).toBe(201);
    expect(declared('POST', invitePath, 201).parse(created.json())).toMatchObject({ delivery: 'mail', url: null, mail: { sentTo: 'design@bigcorp.example' } });
    const link = linkIn((await sink.waitFor((m) => m.to.includes('design@bigcorp.example'))).text);
    expect(link).toMatch(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}'));
    expect(created.body).not.toContain(tokenOf(link));
    const listed = await asPerson(mailed, bigcorpOwner)('GET', `workspaces/${bigcorp}/members`);
    expect(listed.body).not.toContain(tokenOf(link));
    expect(listed.json().invitations).toContainEqual(expect.objectContaining({ email: 'design@bigcorp.example', delivery: 'mail' }));

    expect(declared('GET', '/console/api/invitations/:token', 200).parse((await offered(mailed, tokenOf(link))).json())).toMatchObject({ email: 'design@bigcorp.example', password: 'choose' });
    expect((await accept(mailed, tokenOf(link), { password: OWNER_PASSWORD, name: 'Dee' })).statusCode).toBe(200);
    expect(await confirmedAt('design@bigcorp.example')).toBeInstanceOf(Date);
    expect(await membership(bigcorp, 'design@bigcorp.example')).toEqual({ role: 'editor' });
  });

  it('says in words why an invitation could not be mailed, keeps it listed to withdraw, and still answers no link', async () => {
    const nothing = await reservePort();
    const failing = buildTestApp(testDb.db, { mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${nothing.port}`, from: 'Signalbox <signalbox@test.example>' }) }).app;
    try {
      const created = await asPerson(failing, bigcorpOwner)('POST', `workspaces/${bigcorp}/invitations`, { email: 'lost@bigcorp.example', role: 'viewer' });
      expect(declared('POST', invitePath, 201).parse(created.json())).toMatchObject({
        delivery: 'mail',
        url: null,
        mail: { notSent: 'the mail server refused the connection: nothing answers at its address and port' },
      });
      const listed = (await asPerson(failing, bigcorpOwner)('GET', `workspaces/${bigcorp}/members`)).json().invitations;
      expect(listed).toContainEqual(expect.objectContaining({ id: created.json().id, email: 'lost@bigcorp.example', delivery: 'mail' }));
      expect((await asPerson(failing, bigcorpOwner)('DELETE', `workspaces/${bigcorp}/invitations/${created.json().id}`)).statusCode).toBe(200);
    } finally {
      await failing.close();
      nothing.release();
    }
  });

  it('gives the mailbox’s owner a mailed link that replaces the password of an account someone claimed before them', async () => {
    const attacker = await claimBeforeTheOwner('sales@bigcorp.example');
    await asPerson(mailed, bigcorpOwner)('POST', `workspaces/${bigcorp}/invitations`, { email: 'sales@bigcorp.example', role: 'editor' });
    const token = tokenOf(linkIn((await sink.waitFor((m) => m.to.includes('sales@bigcorp.example'))).text));
    expect((await offered(mailed, token)).json().password).toBe('replace');
    const weak = await accept(mailed, token, { password: 'short' });
    expect(weak.json().issues).toEqual(['password must be at least 12 characters']);

    expect((await accept(mailed, token, { password: OWNER_PASSWORD, name: 'Sal' })).statusCode).toBe(200);
    expect(await signInStatus('sales@bigcorp.example', ATTACKER_PASSWORD)).toBe(401);
    expect(await signInStatus('sales@bigcorp.example', OWNER_PASSWORD)).toBe(200);
    expect((await asPerson(unmailed, attacker)('GET', 'session')).json().error).toBe('session_expired');
    expect(await confirmedAt('sales@bigcorp.example')).toBeInstanceOf(Date);
    expect((await testDb.db('users').where({ email: 'sales@bigcorp.example' }).first('name'))?.name).toBe('Sal');
  });

  it('confirms an account when its password is reset through the mailed link', async () => {
    await claimBeforeTheOwner('support@bigcorp.example');
    expect((await mailed.inject({ method: 'POST', url: '/console/api/password-resets', payload: { email: 'support@bigcorp.example' } })).statusCode).toBe(202);
    const reset = linkIn((await sink.waitFor((m) => m.to.includes('support@bigcorp.example'))).text).split('/reset-password/')[1] as string;
    expect((await mailed.inject({ method: 'POST', url: `/console/api/password-resets/${reset}`, payload: { newPassword: OWNER_PASSWORD } })).statusCode).toBe(200);
    expect(await confirmedAt('support@bigcorp.example')).toBeInstanceOf(Date);
    // Confirmed now: the operator adds the role and leaves the password alone.
    expect((await adminCall(unmailed, 'POST', `/admin/workspaces/${bigcorp}/members`, { email: 'support@bigcorp.example', role: 'viewer' })).json().account).toBe('existing');
  });
});

describe('without a mail server', () => {
  it('the issue’s reproduction: the operator’s `users create --password` replaces the claimed account’s password; without one it invites instead', async () => {
    const attacker = await claimBeforeTheOwner('marketing@bigcorp.example');

    const withoutPassword = await adminCall(unmailed, 'POST', `/admin/workspaces/${bigcorp}/members`, { email: 'marketing@bigcorp.example', role: 'owner' });
    expect(withoutPassword.statusCode).toBe(201);
    expect(declared('POST', '/admin/workspaces/:workspaceId/members', 201).parse(withoutPassword.json())).toMatchObject({
      account: 'invited',
      passwordSet: false,
      user: null,
      invitation: { email: 'marketing@bigcorp.example', delivery: 'operator' },
      invitationUrl: expect.stringMatching(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}')),
      message: expect.stringContaining('never confirmed'),
    });
    expect(withoutPassword.json().message).toContain('the role was not given to it');
    expect(await membership(bigcorp, 'marketing@bigcorp.example')).toBeUndefined();
    // The operator's link, held by the person the operator chose, asks for a new password, not the claimed one.
    expect((await offered(unmailed, tokenOf(withoutPassword.json().invitationUrl))).json().password).toBe('replace');

    const withPassword = await adminCall(unmailed, 'POST', `/admin/workspaces/${bigcorp}/members`, { email: 'marketing@bigcorp.example', role: 'owner', password: OPERATOR_PASSWORD });
    expect(declared('POST', '/admin/workspaces/:workspaceId/members', 201).parse(withPassword.json())).toMatchObject({
      account: 'replaced-unconfirmed',
      passwordSet: true,
      user: { email: 'marketing@bigcorp.example' },
      invitationUrl: null,
    });
    expect(withPassword.json().message).toBe(
      'marketing@bigcorp.example had an account whose address was never confirmed: the password given replaced its password, every session of it was ended, and it is now confirmed and owner of this workspace. It signs in with this email and the password given.',
    );
    expect(await signInStatus('marketing@bigcorp.example', ATTACKER_PASSWORD)).toBe(401);
    expect((await asPerson(unmailed, attacker)('GET', `workspaces/${bigcorp}`)).json().error).toBe('session_expired');
    const operatorChosen = await unmailed.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'marketing@bigcorp.example', password: OPERATOR_PASSWORD } });
    expect(operatorChosen.json().workspaces).toContainEqual({ workspaceId: bigcorp, workspaceName: 'Bigcorp', role: 'owner' });
    expect(await confirmedAt('marketing@bigcorp.example')).toBeInstanceOf(Date);
  });

  it('adds the role to a confirmed account without touching its password, and says the password given was not used', async () => {
    const other = await createWorkspace(unmailed, 'Bigcorp EU');
    const added = await adminCall(unmailed, 'POST', `/admin/workspaces/${other}/members`, { email: 'Boss@bigcorp.example', role: 'editor', password: OPERATOR_PASSWORD, name: 'Not Boss' });
    expect(declared('POST', '/admin/workspaces/:workspaceId/members', 201).parse(added.json())).toMatchObject({ account: 'existing', passwordSet: false, user: { email: 'boss@bigcorp.example', name: '' }, invitationUrl: null });
    expect(added.json().message).toBe('boss@bigcorp.example already had an account: it is now editor of this workspace and keeps its own password and name. The password and name given were not used.');
    expect(await signInStatus('boss@bigcorp.example', OPERATOR_PASSWORD)).toBe(401);
    expect((await signIn(unmailed, 'boss@bigcorp.example', TEST_PASSWORD)).userId).toBe(bigcorpOwner.userId);
    expect(await membership(other, 'boss@bigcorp.example')).toEqual({ role: 'editor' });

    const created = await adminCall(unmailed, 'POST', `/admin/workspaces/${other}/members`, { email: 'new@bigcorp.example', role: 'viewer', password: OPERATOR_PASSWORD });
    expect(created.json()).toMatchObject({ account: 'created', passwordSet: true, user: { email: 'new@bigcorp.example' } });
    expect(await confirmedAt('new@bigcorp.example')).toBeInstanceOf(Date);
  });

  it('says the link must be passed on by hand, and tells its holder nothing of whether the address has an account', async () => {
    await personIn(unmailed, await createWorkspace(unmailed, 'Elsewhere'), 'someone@elsewhere.example', 'owner');
    const owner = asPerson(unmailed, bigcorpOwner);
    const toNobody = (await owner('POST', `workspaces/${bigcorp}/invitations`, { email: 'nobody@elsewhere.example', role: 'viewer' })).json();
    const toSomeone = (await owner('POST', `workspaces/${bigcorp}/invitations`, { email: 'someone@elsewhere.example', role: 'viewer' })).json();
    expect(toNobody).toMatchObject({ delivery: 'shown', mail: { notSent: 'this Signalbox has no mail server set up' } });

    const [nobody, someone] = [(await offered(unmailed, tokenOf(toNobody.url))).json(), (await offered(unmailed, tokenOf(toSomeone.url))).json()];
    expect(declared('GET', '/console/api/invitations/:token', 200).parse(nobody)).toMatchObject({ password: 'current-or-choose' });
    const apart = ({ email: _email, expiresAt: _expiresAt, ...rest }: Record<string, unknown>) => rest;
    expect(apart(nobody)).toEqual(apart(someone));
    // A shown link into an existing account still needs its password.
    expect((await accept(unmailed, tokenOf(toSomeone.url), { password: ATTACKER_PASSWORD })).json().issues).toEqual(['password is not the password of this account']);
    expect((await accept(unmailed, tokenOf(toSomeone.url), { password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('invitation limits', () => {
  const invite = (app: FastifyInstance, person: Person, workspaceId: string, n: number) =>
    asPerson(app, person)('POST', `workspaces/${workspaceId}/invitations`, { email: `guest${n}@limits.example`, role: 'viewer' });

  it(`refuses a person’s invitation past ${INVITATIONS_PER_INVITER} an hour, across workspaces, with Retry-After and when`, async () => {
    const shop = await createWorkspace(unmailed, 'Limit shop');
    const inviter = await personIn(unmailed, shop, 'many@limits.example', 'owner');
    const ownShop = (await asPerson(unmailed, inviter)('POST', 'workspaces', { name: 'Second limit shop' })).json().workspace.id as string;
    for (let n = 0; n < INVITATIONS_PER_INVITER; n += 1) expect((await invite(unmailed, inviter, n % 2 === 0 ? shop : ownShop, n)).statusCode).toBe(201);

    const refused = await invite(unmailed, inviter, ownShop, 21);
    expect(refused.statusCode).toBe(429);
    expect(declared('POST', invitePath, 429).parse(refused.json())).toMatchObject({ error: 'rate_limited' });
    expect(refused.json().message).toMatch(/^you have sent 20 invitations in the last hour, the most allowed: the next invitation can be sent in \d+ minutes$/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await invite(mailed, inviter, shop, 26)).statusCode).toBe(429);
    expect(await testDb.db('invitations').where({ email: 'guest21@limits.example' }).first()).toBeUndefined();

    // An hour after the first, there is room for one more.
    const first = await testDb.db('invitations').where({ invited_by: `user:${inviter.userId}` }).orderBy('created_at').first('id');
    await testDb.db('invitations').where({ id: first?.id }).update({ created_at: testDb.db.raw("now() - interval '61 minutes'") });
    expect((await invite(unmailed, inviter, shop, 22)).statusCode).toBe(201);
    expect((await invite(unmailed, inviter, shop, 23)).statusCode).toBe(429);
  });

  it(`refuses a workspace’s invitation past ${INVITATIONS_PER_WORKSPACE} a day, whoever invites`, async () => {
    const shop = await createWorkspace(unmailed, 'Busy shop');
    const owners = [];
    for (const name of ['a', 'b', 'c']) owners.push(await personIn(unmailed, shop, `${name}@busy.example`, 'owner'));
    for (let n = 0; n < INVITATIONS_PER_WORKSPACE; n += 1) expect((await invite(unmailed, owners[Math.floor(n / INVITATIONS_PER_INVITER)] as Person, shop, 100 + n)).statusCode).toBe(201);
    // The operator's own invitations are not counted.
    expect((await adminCall(unmailed, 'POST', `/admin/workspaces/${shop}/members`, { email: 'ops@busy.example', role: 'viewer' })).json().account).toBe('invited');

    const refused = await invite(unmailed, owners[2] as Person, shop, 200);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^this workspace has sent 50 invitations in the last 24 hours, the most allowed: the next invitation can be sent in \d+ hours$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3600);
  });
});
