import { hashPassword } from '../api/services/accounts/passwords';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { devPasswordStillWorks, devSignInText } from './dev-sign-in';

let testDb: TestDatabase;
const signIn = { email: 'dev@signalbox.local', password: 'sbx-0123456789abcdef01234567', workspaceId: 'ws_dev' };

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb?.destroy());

describe('the dev sign-in npm start prints', () => {
  it('prints the kept password while it signs in, and no longer once its owner changed it', async () => {
    expect(await devPasswordStillWorks(testDb.db, signIn)).toBe(false);
    await testDb.db('users').insert({ id: 'usr_dev', email: signIn.email, name: 'Developer', password_hash: await hashPassword(signIn.password) });
    expect(await devPasswordStillWorks(testDb.db, signIn)).toBe(true);
    expect(devSignInText(signIn, true)).toBe('sign in as dev@signalbox.local with password sbx-0123456789abcdef01234567 (owner of "Dev shop", ws_dev)');

    await testDb.db('users').where({ id: 'usr_dev' }).update({ password_hash: await hashPassword('a password the developer chose') });
    expect(await devPasswordStillWorks(testDb.db, signIn)).toBe(false);
    const changed = devSignInText(signIn, false);
    expect(changed).toMatch(/^sign in as dev@signalbox\.local with the password you set in the console \(the one first printed was changed/);
    expect(changed).not.toContain(signIn.password);
  });
});
