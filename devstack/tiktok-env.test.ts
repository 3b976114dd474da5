import { FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET } from './tiktok-fake/seed';
import { ingestTikTokEnv } from './tiktok-env';

describe('ingestTikTokEnv', () => {
  it("points OAuth at the fake's app and authorization page, and the redirect at this ingest's callback", () => {
    expect(ingestTikTokEnv({ tiktokUrl: 'http://127.0.0.1:9099', usingFake: true, ingestUrl: 'http://127.0.0.1:8080', env: { TIKTOK_APP_ID: '123' } })).toEqual({
      TIKTOK_API_URL: 'http://127.0.0.1:9099',
      TIKTOK_APP_ID: FAKE_TIKTOK_APP_ID,
      TIKTOK_APP_SECRET: FAKE_TIKTOK_APP_SECRET,
      TIKTOK_AUTH_URL: 'http://127.0.0.1:9099/portal/auth',
      TIKTOK_OAUTH_REDIRECT_URI: 'http://127.0.0.1:8080/oauth/tiktok/callback',
    });
  });

  it('leaves a real app to the environment and keeps a configured redirect', () => {
    const real = { tiktokUrl: 'https://business-api.tiktok.com', usingFake: false, ingestUrl: 'http://127.0.0.1:8080' };
    expect(ingestTikTokEnv({ ...real, env: {} })).toEqual({
      TIKTOK_API_URL: 'https://business-api.tiktok.com',
      TIKTOK_OAUTH_REDIRECT_URI: 'http://127.0.0.1:8080/oauth/tiktok/callback',
    });
    expect(ingestTikTokEnv({ ...real, env: { TIKTOK_OAUTH_REDIRECT_URI: 'https://signalbox.example/oauth/tiktok/callback' } }).TIKTOK_OAUTH_REDIRECT_URI).toBe(
      'https://signalbox.example/oauth/tiktok/callback',
    );
  });
});
