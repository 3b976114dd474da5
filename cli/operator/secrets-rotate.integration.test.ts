import os from 'node:os';
import { createRepositories, type Repositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { rotateSealedSecrets } from '../../db/secret-rotation';
import { DEFAULT_ALERT_SETTINGS } from '../../db/repositories/alert-settings';
import { runSignalbox } from '../../test/helpers/cli';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';

const OLD_KEY = '0a'.repeat(32);
const NEW_KEY = '1b'.repeat(32);
const OTHER_KEY = '2c'.repeat(32);
const TOKENS = 'tiktok_connections.access_token_ciphertext';
const WEBHOOKS = 'alert_settings.webhook_url_ciphertext';
const SIGNING_SECRETS = 'webhook_sources.signing_secret_ciphertext';
const SHOP_TOKENS = 'shopify_connections.access_token_ciphertext';
const DONE = 'Every sealed value opens with SECRET_KEY now: remove SECRET_KEY_PREVIOUS from the services, restarting them one at a time.';

let testDb: TestDatabase;
/** The repositories as the services open them: before the rotation, during it (both keys), after it. */
let underOld: Repositories;
let duringRotation: Repositories;
let underNew: Repositories;

beforeAll(async () => {
  testDb = await createTestDatabase();
  underOld = createRepositories(testDb.db, createSecretBox(OLD_KEY));
  duringRotation = createRepositories(testDb.db, createSecretBox(NEW_KEY, OLD_KEY));
  underNew = createRepositories(testDb.db, createSecretBox(NEW_KEY));
});
afterAll(() => testDb?.destroy());

const signalbox = (args: string[], env: NodeJS.ProcessEnv) => runSignalbox(args, { env: { DATABASE_URL: testDb.url, ...env }, cwd: os.tmpdir() });
const rotate = (env: NodeJS.ProcessEnv = { SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY }) => signalbox(['secrets', 'rotate'], env);

/** A workspace whose TikTok token, alert webhook URL, Shopify signing secret and shop token a service running with `repos`' keys stored. */
async function workspaceWithSecrets(name: string, repos: Repositories): Promise<{ id: string; token: string; webhookUrl: string; signingSecret: string; shopToken: string }> {
  const { id } = await repos.workspaces.create(name);
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const token = `act.${slug}`;
  const webhookUrl = `https://hooks.slack.example/services/${slug}`;
  await repos.tiktokConnections.put(id, { accessToken: token, advertiserId: null, pixelCode: 'CROTATEPIXEL00000001' });
  await repos.alertSettings.put(id, { ...DEFAULT_ALERT_SETTINGS, webhookUrl });
  const signingSecret = `shpss_${slug}`;
  sourceOf.set(id, (await repos.webhookSources.create(id, { type: 'shopify', name: `${name} store`, signingSecret })).id);
  const shopToken = `shpat_${slug}`;
  const browserKey = await repos.apiKeys.create(id, 'storefront', 'browser');
  await repos.shopifyConnections.putAuthorized(id, { shopDomain: `${slug}.myshopify.com`, accessToken: shopToken, grantedScopes: ['read_orders'], sourceId: sourceOf.get(id) as string, browserKeyId: browserKey.id });
  return { id, token, webhookUrl, signingSecret, shopToken };
}

/** Each workspace's webhook source. */
const sourceOf = new Map<string, string>();

async function secretsOf(repos: Repositories, id: string) {
  return {
    token: (await repos.tiktokConnections.withToken(id))?.accessToken,
    webhookUrl: (await repos.alertSettings.get(id)).webhookUrl,
    signingSecret: (await repos.webhookSources.withSecret(sourceOf.get(id) as string))?.signingSecret,
    shopToken: (await repos.shopifyConnections.withToken(id))?.accessToken,
  };
}

describe('signalbox secrets rotate', () => {
  it('re-seals every registered column under SECRET_KEY: services given both keys read every value throughout, the old key alone none afterwards; a second run changes nothing', async () => {
    const stored = [await workspaceWithSecrets('Candle shop', underOld), await workspaceWithSecrets('Soap shop', underOld)];
    // Written by a service already given both keys: sealed under the new one.
    const writtenDuring = await workspaceWithSecrets('Tea shop', duringRotation);
    for (const { id, token, webhookUrl, signingSecret, shopToken } of [...stored, writtenDuring]) expect(await secretsOf(duringRotation, id)).toEqual({ token, webhookUrl, signingSecret, shopToken });

    expect(await rotate()).toEqual({
      code: 0,
      stdout: [
        `${TOKENS}: 2 re-encrypted, 1 already under SECRET_KEY, 0 opened by neither key`,
        `${WEBHOOKS}: 2 re-encrypted, 1 already under SECRET_KEY, 0 opened by neither key`,
        `${SIGNING_SECRETS}: 2 re-encrypted, 1 already under SECRET_KEY, 0 opened by neither key`,
        `${SHOP_TOKENS}: 2 re-encrypted, 1 already under SECRET_KEY, 0 opened by neither key`,
        DONE,
      ].join('\n'),
      stderr: '',
    });
    for (const { id, token, webhookUrl, signingSecret, shopToken } of [...stored, writtenDuring]) {
      expect(await secretsOf(underNew, id)).toEqual({ token, webhookUrl, signingSecret, shopToken });
      await expect(underOld.tiktokConnections.withToken(id)).rejects.toThrow(`${TOKENS}: the stored value does not open with SECRET_KEY`);
      await expect(underOld.alertSettings.get(id)).rejects.toThrow(`${WEBHOOKS}: the stored value does not open with SECRET_KEY`);
      await expect(underOld.webhookSources.withSecret(sourceOf.get(id) as string)).rejects.toThrow(`${SIGNING_SECRETS}: the stored value does not open with SECRET_KEY`);
    }

    expect((await rotate()).stdout.split('\n')).toEqual([
      `${TOKENS}: 0 re-encrypted, 3 already under SECRET_KEY, 0 opened by neither key`,
      `${WEBHOOKS}: 0 re-encrypted, 3 already under SECRET_KEY, 0 opened by neither key`,
      `${SIGNING_SECRETS}: 0 re-encrypted, 3 already under SECRET_KEY, 0 opened by neither key`,
      `${SHOP_TOKENS}: 0 re-encrypted, 3 already under SECRET_KEY, 0 opened by neither key`,
      DONE,
    ]);
  });

  it('leaves a value neither key opens as it is, names its row and exits 1; a service with both keys names the column and both keys', async () => {
    const foreign = await workspaceWithSecrets('Foreign shop', createRepositories(testDb.db, createSecretBox(OTHER_KEY)));
    const result = await rotate();
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${TOKENS}: 0 re-encrypted, \\d+ already under SECRET_KEY, 1 opened by neither key$`)),
      expect.stringMatching(new RegExp(`^${WEBHOOKS}: 0 re-encrypted, \\d+ already under SECRET_KEY, 1 opened by neither key$`)),
      expect.stringMatching(new RegExp(`^${SIGNING_SECRETS}: 0 re-encrypted, \\d+ already under SECRET_KEY, 1 opened by neither key$`)),
      expect.stringMatching(new RegExp(`^${SHOP_TOKENS}: 0 re-encrypted, \\d+ already under SECRET_KEY, 1 opened by neither key$`)),
    ]);
    expect(result.stderr).toBe(
      `Error: some values open with neither key and were left as they were (${TOKENS}: ${foreign.id}; ${WEBHOOKS}: ${foreign.id}; ${SIGNING_SECRETS}: ${sourceOf.get(foreign.id)}; ${SHOP_TOKENS}: ${foreign.id}): is SECRET_KEY_PREVIOUS the key they were stored with?`,
    );
    await expect(duringRotation.alertSettings.get(foreign.id)).rejects.toThrow(
      `${WEBHOOKS}: the stored value does not open with either SECRET_KEY or SECRET_KEY_PREVIOUS: it was sealed under another key`,
    );
    expect(await secretsOf(createRepositories(testDb.db, createSecretBox(OTHER_KEY)), foreign.id)).toEqual({ token: foreign.token, webhookUrl: foreign.webhookUrl, signingSecret: foreign.signingSecret, shopToken: foreign.shopToken });
    await testDb.db('workspaces').where({ id: foreign.id }).delete();
  });

  it('goes through every row, batch after batch', async () => {
    const stored = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((letter) => workspaceWithSecrets(`Batch shop ${letter}`, underOld)));
    const rotations = await rotateSealedSecrets(testDb.db, { from: createSecretBox(OLD_KEY), to: createSecretBox(NEW_KEY) }, { batchSize: 2 });
    expect(rotations.map(({ reencrypted, unreadable }) => ({ reencrypted, unreadable }))).toEqual([
      { reencrypted: 5, unreadable: [] },
      { reencrypted: 5, unreadable: [] },
      { reencrypted: 5, unreadable: [] },
      { reencrypted: 5, unreadable: [] },
    ]);
    for (const { id, token, webhookUrl, signingSecret, shopToken } of stored) expect(await secretsOf(underNew, id)).toEqual({ token, webhookUrl, signingSecret, shopToken });
  });

  it('names what is wrong with the keys', async () => {
    expect((await rotate({ SECRET_KEY: NEW_KEY })).stderr).toBe('Error: Invalid configuration: SECRET_KEY_PREVIOUS is required: the key being retired, with SECRET_KEY set to the new one');
    expect((await rotate({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: NEW_KEY.toUpperCase() })).stderr).toBe(
      'Error: Invalid configuration: SECRET_KEY_PREVIOUS is SECRET_KEY itself: it must be the key being retired',
    );
    expect(await rotate({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: 'short' })).toMatchObject({ code: 1, stderr: expect.stringMatching(/SECRET_KEY_PREVIOUS must be 64 hex characters/) });
    expect((await rotate({ SECRET_KEY_PREVIOUS: OLD_KEY })).stderr).toMatch(/SECRET_KEY is required/);
  });
});
