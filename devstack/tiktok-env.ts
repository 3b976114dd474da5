import { AUTHORIZATION_PAGE_PATH } from './tiktok-fake/routes/authorization-page';
import { FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET } from './tiktok-fake/seed';
import { TIKTOK_OAUTH_CALLBACK_PATH } from '../api/http/paths';

export interface IngestTikTokEnvInput {
  /** The TikTok API the stack uses: the fake's URL, or the configured `TIKTOK_API_URL`. */
  tiktokUrl: string;
  usingFake: boolean;
  ingestUrl: string;
  /** The dev stack's own environment (a real app's `TIKTOK_APP_ID`/`TIKTOK_APP_SECRET` pass through from it). */
  env: NodeJS.ProcessEnv;
}

/**
 * TikTok settings of the ingest process. Against the fake: the fake's developer app and authorization page, so OAuth
 * works offline. Against real TikTok: the app from the environment; the redirect defaults to this ingest's callback
 * (it must be one of the app's registered redirect URLs).
 */
export function ingestTikTokEnv({ tiktokUrl, usingFake, ingestUrl, env }: IngestTikTokEnvInput): Record<string, string> {
  const redirectUri = `${ingestUrl}${TIKTOK_OAUTH_CALLBACK_PATH}`;
  if (usingFake) {
    return {
      TIKTOK_API_URL: tiktokUrl,
      TIKTOK_APP_ID: FAKE_TIKTOK_APP_ID,
      TIKTOK_APP_SECRET: FAKE_TIKTOK_APP_SECRET,
      TIKTOK_AUTH_URL: `${tiktokUrl}${AUTHORIZATION_PAGE_PATH}`,
      TIKTOK_OAUTH_REDIRECT_URI: redirectUri,
    };
  }
  return { TIKTOK_API_URL: tiktokUrl, TIKTOK_OAUTH_REDIRECT_URI: env.TIKTOK_OAUTH_REDIRECT_URI ?? redirectUri };
}
