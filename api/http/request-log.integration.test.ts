import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { startTestIngestServer } from '../../test/helpers/ingest-server';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import type { RunningIngest } from '../server';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../../test/helpers/test-app';

const SHOP_ORIGIN = 'https://shop.example';

let testDb: TestDatabase;
let ingest: RunningIngest;
const logLines: string[] = [];
let secretKey: string;
let browserKey: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const repos = createRepositories(testDb.db, createSecretBox(TEST_SECRET_KEY));
  const workspace = await repos.workspaces.create('Logged shop');
  await repos.workspaces.updateSettings(workspace.id, { allowedOrigins: [SHOP_ORIGIN] });
  secretKey = (await repos.apiKeys.create(workspace.id, 'backend')).key;
  browserKey = (await repos.apiKeys.create(workspace.id, 'site', 'browser')).key;
  // The most talkative level, so that nothing a lower level would log escapes the scan.
  ingest = await startTestIngestServer(testDb.url, { env: { LOG_LEVEL: 'trace' }, logDestination: { write: (line: string) => logLines.push(line) } });
});
afterAll(async () => {
  await ingest.close();
  await testDb.destroy();
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
