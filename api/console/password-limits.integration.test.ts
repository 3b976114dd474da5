import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS } from '../services/accounts/password-attempts';
import { buildTestApp } from '../../test/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { asPerson, createWorkspace, personIn, signIn, TEST_PASSWORD, type Person } from '../../test/helpers/console-client';

/**
 * Every endpoint that checks a password someone types in (sign-in, accepting an invitation into an existing account,
 * changing the password) shares one set of limits, per account and per address: guesses anywhere count everywhere,
 * and a locked-out account gets in through none of them, not even with the right password.
 */
let testDb: TestDatabase;
let app: FastifyInstance;
let fernShop: string;
let oakShop: string;
let oakOwner: Person;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = buildTestApp(testDb.db).app;
  fernShop = await createWorkspace(app, 'Fern shop');
  oakShop = await createWorkspace(app, 'Oak shop');
  oakOwner = await personIn(app, oakShop, 'owner@oak.example', 'owner');
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const signInAs = (email: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password }, remoteAddress });

/** An invitation of `email` (who has an account already) into Oak shop; its link's token. */
async function invitationToOak(email: string): Promise<string> {
  const created = await asPerson(app, oakOwner)('POST', `workspaces/${oakShop}/invitations`, { email, role: 'viewer' });
  expect(created.statusCode).toBe(201);
  return (created.json().url as string).split('/invitations/')[1] as string;
}

const accept = (token: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: `/console/api/invitations/${token}/accept`, payload: { password }, remoteAddress });

const changePassword = (person: Person, currentPassword: string, newPassword: string, remoteAddress: string) =>
  app.inject({
    method: 'PUT',
    url: '/console/api/session/password',
    payload: { currentPassword, newPassword },
    headers: { cookie: person.cookie, 'x-csrf-token': person.csrfToken },
    remoteAddress,
  });

function expectLimited(answer: LightMyRequestResponse, scope: 'account' | 'address'): void {
  expect(answer.statusCode).toBe(429);
  expect(answer.json()).toMatchObject({ error: 'rate_limited', message: expect.stringContaining(`this ${scope}`) });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
}

const joinedOak = async (email: string) =>
  (await testDb.db('memberships').join('users', 'users.id', 'memberships.user_id').where('users.email', email).andWhere('memberships.workspace_id', oakShop)).length > 0;

describe('invitation accept', () => {
  it('counts wrong passwords as failed sign-ins: past the limit it answers 429, even to the right password, and so does sign-in', async () => {
    await personIn(app, fernShop, 'ida@fern.example', 'editor');
    const token = await invitationToOak('ida@fern.example');
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      const wrong = await accept(token, `guess number ${attempt}`, `10.10.0.${attempt}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().issues).toEqual(['password is not the password of this account']);
    }

    expectLimited(await accept(token, TEST_PASSWORD, '10.10.1.1'), 'account');
    expectLimited(await signInAs('ida@fern.example', TEST_PASSWORD, '10.10.1.2'), 'account');
    expect(await joinedOak('ida@fern.example')).toBe(false);
  });

  it('refuses an account locked out by failed sign-ins, and an address that guessed too often', async () => {
    await personIn(app, fernShop, 'jon@fern.example', 'editor');
    const token = await invitationToOak('jon@fern.example');
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      expect((await signInAs('jon@fern.example', `guess number ${attempt}`, `10.11.0.${attempt}`)).statusCode).toBe(401);
    }
    expectLimited(await accept(token, TEST_PASSWORD, '10.11.1.1'), 'account');
    expect(await joinedOak('jon@fern.example')).toBe(false);

    await personIn(app, fernShop, 'kim@fern.example', 'editor');
    const kimsToken = await invitationToOak('kim@fern.example');
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ADDRESS; attempt += 1) {
      await signInAs(`stranger${attempt}@fern.example`, 'some guess here', '10.12.0.1');
    }
    expectLimited(await accept(kimsToken, TEST_PASSWORD, '10.12.0.1'), 'address');
    expect((await accept(kimsToken, TEST_PASSWORD, '10.12.0.2')).statusCode).toBe(200);
    expect(await joinedOak('kim@fern.example')).toBe(true);
  });
});

describe('password change', () => {
  it('counts a wrong current password as a failed sign-in: past the limit it answers 429, even to the right one, and so does sign-in', async () => {
    const lee = await personIn(app, fernShop, 'lee@fern.example', 'viewer');
    const passwordHash = async () => (await testDb.db('users').where({ email: 'lee@fern.example' }).first())?.password_hash;
    const before = await passwordHash();
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      const wrong = await changePassword(lee, `guess number ${attempt}`, 'a brand new passphrase', `10.13.0.${attempt}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().issues).toEqual(['currentPassword is not the password of this account']);
    }

    expectLimited(await changePassword(lee, TEST_PASSWORD, 'a brand new passphrase', '10.13.1.1'), 'account');
    expectLimited(await signInAs('lee@fern.example', TEST_PASSWORD, '10.13.1.2'), 'account');
    expect(await passwordHash()).toBe(before);
  });

  it('refuses an account locked out by failed sign-ins', async () => {
    const max = await personIn(app, fernShop, 'max@fern.example', 'viewer');
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      expect((await signInAs('max@fern.example', `guess number ${attempt}`, `10.14.0.${attempt}`)).statusCode).toBe(401);
    }
    expectLimited(await changePassword(max, TEST_PASSWORD, 'a brand new passphrase', '10.14.1.1'), 'account');
  });

  it('with the current password: sets the new one, signs every other session out, and keeps this one', async () => {
    const here = await personIn(app, fernShop, 'noa@fern.example', 'viewer');
    const elsewhere = await signIn(app, 'noa@fern.example', TEST_PASSWORD, '10.15.0.2');

    const weak = await changePassword(here, TEST_PASSWORD, 'short', '10.15.0.1');
    expect(weak.json().issues).toEqual(['newPassword must be at least 12 characters']);
    const withoutCsrf = await app.inject({ method: 'PUT', url: '/console/api/session/password', payload: { currentPassword: TEST_PASSWORD, newPassword: 'a brand new passphrase' }, headers: { cookie: here.cookie } });
    expect(withoutCsrf.statusCode).toBe(403);

    const changed = await changePassword(here, TEST_PASSWORD, 'a brand new passphrase', '10.15.0.1');
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ changed: true });
    expect((await asPerson(app, here)('GET', 'session')).statusCode).toBe(200);
    expect((await asPerson(app, elsewhere)('GET', 'session')).json().error).toBe('session_expired');
    expect((await signInAs('noa@fern.example', TEST_PASSWORD, '10.15.0.3')).statusCode).toBe(401);
    expect((await signInAs('noa@fern.example', 'a brand new passphrase', '10.15.0.3')).statusCode).toBe(200);
  });
});
