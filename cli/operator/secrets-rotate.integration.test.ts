import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRepositories, type Repositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { rotateSealedSecrets } from '../../db/secret-rotation';
import { runSignalbox } from '../../test/helpers/cli';
import { closeAll } from '../../test/helpers/close-all';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';

const OLD_KEY = '0a'.repeat(32);
const NEW_KEY = '1b'.repeat(32);
const OTHER_KEY = '2c'.repeat(32);
const COUNTS = 'tiktok_connections.access_token_ciphertext';

let testDb: TestDatabase;
let keyDir: string;
/** The repositories as the services open them, under each key. */
let underOld: Repositories;
let underNew: Repositories;

beforeAll(async () => {
  testDb = await createTestDatabase();
  keyDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-keys-'));
  underOld = createRepositories(testDb.db, createSecretBox(OLD_KEY));
  underNew = createRepositories(testDb.db, createSecretBox(NEW_KEY));
});
afterAll(() =>
  closeAll(
    () => rmSync(keyDir, { recursive: true, force: true }),
    () => testDb?.destroy(),
  ),
);

const signalbox = (args: string[], env: NodeJS.ProcessEnv) => runSignalbox(args, { env: { DATABASE_URL: testDb.url, ...env }, cwd: keyDir });

/** A workspace whose TikTok token is stored by a service running with `repos`' key. */
async function connectedWorkspace(name: string, repos: Repositories): Promise<{ id: string; token: string }> {
  const { id } = await repos.workspaces.create(name);
  const token = `act.${name.toLowerCase().replace(/\W+/g, '-')}`;
  await repos.tiktokConnections.put(id, { accessToken: token, advertiserId: null, pixelCode: 'CROTATEPIXEL00000001' });
  return { id, token };
}

function keyFile(name: string, contents: string): string {
  const file = path.join(keyDir, name);
  writeFileSync(file, contents, { mode: 0o600 });
  return file;
}

describe('signalbox secrets rotate', () => {
  it('re-encrypts the stored tokens under the new key: readable with it afterwards, not with the old one; a second run changes nothing', async () => {
    const stored = [await connectedWorkspace('Candle shop', underOld), await connectedWorkspace('Soap shop', underOld)];
    // Written meanwhile by a process already given the new key.
    const writtenWithNewKey = await connectedWorkspace('Tea shop', underNew);

    expect(await signalbox(['secrets', 'rotate'], { SECRET_KEY: OLD_KEY, NEW_SECRET_KEY: NEW_KEY })).toEqual({
      code: 0,
      stdout: `${COUNTS}: 2 re-encrypted, 1 already under the new key, 0 opened by neither key\nNow restart the API and the worker with SECRET_KEY set to the new key.`,
      stderr: '',
    });
    for (const { id, token } of [...stored, writtenWithNewKey]) {
      expect((await underNew.tiktokConnections.withToken(id))?.accessToken).toBe(token);
      await expect(underOld.tiktokConnections.withToken(id)).rejects.toThrow();
    }

    const again = await signalbox(['secrets', 'rotate', '--new-key-file', keyFile('new.key', `${NEW_KEY}\n`)], { SECRET_KEY: OLD_KEY });
    expect(again.stdout.split('\n')[0]).toBe(`${COUNTS}: 0 re-encrypted, 3 already under the new key, 0 opened by neither key`);
    expect((await underNew.tiktokConnections.withToken(stored[0]?.id as string))?.accessToken).toBe(stored[0]?.token);
  });

  it('leaves a value neither key opens as it is, names its row and exits 1', async () => {
    const foreign = await connectedWorkspace('Foreign shop', createRepositories(testDb.db, createSecretBox(OTHER_KEY)));
    const result = await signalbox(['secrets', 'rotate'], { SECRET_KEY: OLD_KEY, NEW_SECRET_KEY: NEW_KEY });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^${COUNTS}: 0 re-encrypted, \\d+ already under the new key, 1 opened by neither key$`));
    expect(result.stderr).toBe(
      `Error: some values open with neither key and were left as they were (tiktok_connections: ${foreign.id}): is SECRET_KEY the key they were stored with?`,
    );
    expect((await createRepositories(testDb.db, createSecretBox(OTHER_KEY)).tiktokConnections.withToken(foreign.id))?.accessToken).toBe(foreign.token);
    await testDb.db('tiktok_connections').where({ workspace_id: foreign.id }).delete();
  });

  it('goes through every row, batch after batch', async () => {
    const stored = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((letter) => connectedWorkspace(`Batch shop ${letter}`, underOld)));
    const [rotation] = await rotateSealedSecrets(testDb.db, { current: createSecretBox(OLD_KEY), next: createSecretBox(NEW_KEY) }, { batchSize: 2 });
    expect(rotation).toMatchObject({ reencrypted: 5, unreadable: [] });
    for (const { id, token } of stored) expect((await underNew.tiktokConnections.withToken(id))?.accessToken).toBe(token);
  });

  it('names what is wrong with the new key', async () => {
    const rotate = (env: NodeJS.ProcessEnv, args: string[] = []) => signalbox(['secrets', 'rotate', ...args], { SECRET_KEY: OLD_KEY, ...env });
    expect((await rotate({})).stderr).toBe('Error: the new key is required: --new-key-file <path> or NEW_SECRET_KEY (openssl rand -hex 32)');
    expect((await rotate({ NEW_SECRET_KEY: NEW_KEY }, ['--new-key-file', keyFile('both.key', NEW_KEY)])).stderr).toBe(
      'Error: give the new key once: NEW_SECRET_KEY or --new-key-file, not both',
    );
    expect((await rotate({ NEW_SECRET_KEY: OLD_KEY.toUpperCase() })).stderr).toBe('Error: the new key is SECRET_KEY itself: generate another (openssl rand -hex 32)');
    expect((await rotate({ NEW_SECRET_KEY: 'short' })).stderr).toMatch(/NEW_SECRET_KEY must be 64 hex characters/);
    const short = keyFile('short.key', 'abc');
    expect(await rotate({}, ['--new-key-file', short])).toMatchObject({ code: 1, stderr: `Error: --new-key-file must be 64 hex characters (openssl rand -hex 32): ${short}` });
    expect((await rotate({}, ['--new-key-file', path.join(keyDir, 'missing.key')])).stderr).toBe(`Error: --new-key-file cannot be read: ${path.join(keyDir, 'missing.key')} (ENOENT)`);
    expect((await signalbox(['secrets', 'rotate'], { NEW_SECRET_KEY: NEW_KEY })).stderr).toMatch(/SECRET_KEY is required/);
  });
});
