import { FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET } from './tiktok-fake/seed';
import { ingestTikTokEnv } from './tiktok-env';

describe('ingestTikTokEnv', () => {
  it("points OAuth at the fake's app and authorization page, and the tag at the fake's pixel stand-in", () => {
    expect(ingestTikTokEnv({ tiktokUrl: 'http://127.0.0.1:9099', usingFake: true })).toEqual({
      TIKTOK_API_URL: 'http://127.0.0.1:9099',
      TIKTOK_APP_ID: FAKE_TIKTOK_APP_ID,
      TIKTOK_APP_SECRET: FAKE_TIKTOK_APP_SECRET,
      TIKTOK_AUTH_URL: 'http://127.0.0.1:9099/portal/auth',
      TIKTOK_PIXEL_URL: 'http://127.0.0.1:9099/i18n/pixel/events.js',
    });
  });

  it('leaves a real app and its redirect to the environment', () => {
    expect(ingestTikTokEnv({ tiktokUrl: 'https://business-api.tiktok.com', usingFake: false })).toEqual({ TIKTOK_API_URL: 'https://business-api.tiktok.com' });
  });
});
