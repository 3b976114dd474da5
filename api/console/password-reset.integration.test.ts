import type { FastifyInstance } from 'fastify';
import type { MailSink } from '../../devstack/mail-sink';
import { createMailer } from '../../notify/mailer';
import { createPasswordResetRepository } from '../../db/repositories/password-resets';
import { MAX_RESETS_PER_EMAIL } from '../services/accounts/password-reset';
import { declared } from '../../test/helpers/declared-answer';
import { buildTestApp, publicLinkPattern } from '../../test/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { asPerson, createWorkspace, personIn, signIn, type Person } from '../../test/helpers/console-client';
import { linkIn, startTestMailSink } from '../../test/helpers/mail-sink';

let testDb: TestDatabase;
let app: FastifyInstance;
let sink: MailSink;
let fernShop: string;
let owner: Person;

const NEW_PASSWORD = 'a brand new passphrase';

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startTestMailSink();
  app = buildTestApp(testDb.db, { mailer: createMailer({ smtpUrl: sink.url, from: 'Signalbox <signalbox@test.example>' }) }).app;
  fernShop = await createWorkspace(app, 'Fern shop');
  owner = await personIn(app, fernShop, 'owner@fern.example', 'owner');
});
afterAll(async () => {
  await app.close();
  await sink.close();
  await testDb.destroy();
});

const ask = (email: string, remoteAddress = '10.0.0.1', headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/console/api/password-resets', payload: { email }, remoteAddress, headers });
const resetLink = publicLinkPattern('/console/reset-password/[A-Za-z0-9_-]{43}');
const tokenOf = (link: string) => link.split('/reset-password/')[1] as string;

describe('password reset by mail', () => {
  it('answers the same whether or not the address has an account, and mails only the account', async () => {
    const known = await ask(' Owner@Fern.example ');
    const unknown = await ask('nobody@fern.example');
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.body).toBe(unknown.body);
    expect(declared('POST', '/console/api/password-resets', 202).parse(known.json())).toEqual({ message: expect.stringContaining('If an account uses this address') });
    const mail = await sink.waitFor((m) => m.to.includes('owner@fern.example'));
    expect(mail.subject).toBe('Set a new Signalbox password');
    expect(linkIn(mail.text)).toMatch(resetLink);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages().filter((m) => m.to.includes('nobody@fern.example'))).toEqual([]);
  });

  it('builds the mailed link from PUBLIC_URL, whatever Host the request names (no reset poisoning)', async () => {
    const before = new Set(sink.messages());
    const forged = await ask('owner@fern.example', '10.0.0.2', { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'http' });
    expect(forged.statusCode).toBe(202);
    const mail = await sink.waitFor((m) => !before.has(m) && m.to.includes('owner@fern.example'));
    expect(linkIn(mail.text)).toMatch(resetLink);
    expect(mail.text).not.toContain('attacker');
  });

  it('sets a new password once through the link, with the same rules as a change, and ends every session', async () => {
    const other = await signIn(app, 'owner@fern.example');
    const token = tokenOf(linkIn((await sink.waitFor((m) => m.to.includes('owner@fern.example'))).text));
    const looked = await app.inject({ method: 'GET', url: `/console/api/password-resets/${token}` });
    expect(declared('GET', '/console/api/password-resets/:token', 200).parse(looked.json())).toEqual({ email: 'owner@fern.example' });

    const weak = await app.inject({ method: 'POST', url: `/console/api/password-resets/${token}`, payload: { newPassword: 'owner-fern-1234' } });
    expect([weak.statusCode, weak.json().issues]).toEqual([400, ['newPassword must not contain your email address or its name part']]);

    const reset = await app.inject({ method: 'POST', url: `/console/api/password-resets/${token}`, payload: { newPassword: NEW_PASSWORD } });
    expect([reset.statusCode, declared('POST', '/console/api/password-resets/:token', 200).parse(reset.json())]).toEqual([200, { reset: true }]);
    for (const person of [owner, other]) expect((await asPerson(app, person)('GET', 'session')).statusCode).toBe(401);
    await signIn(app, 'owner@fern.example', NEW_PASSWORD);

    const again = await app.inject({ method: 'POST', url: `/console/api/password-resets/${token}`, payload: { newPassword: 'yet another passphrase' } });
    expect([again.statusCode, again.json().message]).toEqual([404, 'this link to set a new password is not valid, was used already or has expired: ask for a new one']);
  });

  it('refuses an expired link', async () => {
    const { id: userId } = (await testDb.db('users').where({ email: 'owner@fern.example' }).first()) as { id: string };
    const expired = await createPasswordResetRepository(testDb.db).create(userId, new Date(Date.now() - 1_000));
    expect((await app.inject({ method: 'GET', url: `/console/api/password-resets/${expired}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/console/api/password-resets/${expired}`, payload: { newPassword: NEW_PASSWORD } })).statusCode).toBe(404);
  });

  it('limits requests per address typed in, accounts or not, and names a bad address', async () => {
    for (let i = 0; i < MAX_RESETS_PER_EMAIL; i += 1) expect((await ask('flood@fern.example', `10.1.0.${i}`)).statusCode).toBe(202);
    const limited = await ask('flood@fern.example', '10.1.0.99');
    expect([limited.statusCode, limited.headers['retry-after']]).toEqual([429, expect.stringMatching(/^\d+$/)]);
    const bad = await ask('not an address');
    expect([bad.statusCode, bad.json().issues]).toEqual([400, ['email must be an email address, e.g. jo@shop.example']]);
  });
});

describe('invitations by mail', () => {
  let inviter: Person;
  beforeAll(async () => {
    inviter = await personIn(app, fernShop, 'inviter@fern.example', 'owner');
  });

  it('mails the invited person the link under PUBLIC_URL, whatever Host the request names, and never answers it', async () => {
    const before = new Set(sink.messages());
    const invited = await asPerson(app, inviter)('POST', `workspaces/${fernShop}/invitations`, { email: 'Jo@Fern.example', role: 'editor' }, { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' });
    expect(invited.statusCode).toBe(201);
    const mail = await sink.waitFor((m) => !before.has(m) && m.to.includes('jo@fern.example'));
    expect(mail.subject).toBe('inviter@fern.example invites you to Fern shop on Signalbox');
    expect(mail.text).toContain('invites you to the Signalbox workspace "Fern shop" as editor.');
    expect(mail.text).not.toContain('attacker');
    expect(linkIn(mail.text)).toMatch(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}'));
    expect(invited.json()).toMatchObject({ email: 'jo@fern.example', role: 'editor', delivery: 'mail', url: null, mail: { sentTo: 'jo@fern.example' } });
    expect(invited.body).not.toContain(linkIn(mail.text).split('/invitations/')[1]);
  });

  it('answers the link to pass on by hand, saying why, when no mail server is set up', async () => {
    const unmailed = buildTestApp(testDb.db).app;
    try {
      const invited = await asPerson(unmailed, inviter)('POST', `workspaces/${fernShop}/invitations`, { email: 'sam@fern.example', role: 'viewer' });
      expect(invited.statusCode).toBe(201);
      expect(invited.json()).toMatchObject({ delivery: 'shown', url: expect.stringMatching(publicLinkPattern('/console/invitations/[A-Za-z0-9_-]{43}')), mail: { notSent: 'this Signalbox has no mail server set up' } });
    } finally {
      await unmailed.close();
    }
  });
});
