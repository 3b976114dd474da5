import { AUTHORIZATION_PAGE_PATH } from './tiktok-fake/routes/authorization-page';
import { PIXEL_SCRIPT_PATH } from './tiktok-fake/routes/pixel';
import { FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET } from './tiktok-fake/seed';

export interface IngestTikTokEnvInput {
  /** The TikTok API the stack uses: the fake's URL, or the configured `TIKTOK_API_URL`. */
  tiktokUrl: string;
  usingFake: boolean;
}

/**
 * TikTok settings of the ingest process. Against the fake: the fake's developer app and authorization page, so OAuth
 * works offline, and its pixel stand-in as TikTok's pixel library. Against real TikTok: the app from the environment. Either way the redirect is the ingest's callback
 * under `PUBLIC_URL` unless `TIKTOK_OAUTH_REDIRECT_URI` says otherwise (it must be one of the app's registered URLs).
 */
export function ingestTikTokEnv({ tiktokUrl, usingFake }: IngestTikTokEnvInput): Record<string, string> {
  if (!usingFake) return { TIKTOK_API_URL: tiktokUrl };
  return {
    TIKTOK_API_URL: tiktokUrl,
    TIKTOK_APP_ID: FAKE_TIKTOK_APP_ID,
    TIKTOK_APP_SECRET: FAKE_TIKTOK_APP_SECRET,
    TIKTOK_AUTH_URL: `${tiktokUrl}${AUTHORIZATION_PAGE_PATH}`,
    TIKTOK_PIXEL_URL: `${tiktokUrl}${PIXEL_SCRIPT_PATH}`,
  };
}
