import { consoleUrl } from '../../domain/console-links';
import { SHOPIFY_APP_UNINSTALLED_PATH, SHOPIFY_OAUTH_CALLBACK_PATH, TIKTOK_OAUTH_CALLBACK_PATH, TRACKING_SCRIPT_PATH, webhookSourcePath } from './paths';

/** Every link Signalbox mails or shows, built from the configured `PUBLIC_URL`, never from a request's `Host`. */
export interface PublicLinks {
  /** `PUBLIC_URL` itself: where the client library, the tracking script and apps send events. */
  origin: string;
  trackingScript: string;
  /** TikTok's OAuth redirect, unless `TIKTOK_OAUTH_REDIRECT_URI` names another. */
  tiktokOAuthCallback: string;
  /** Shopify's OAuth redirect (Connect Shopify), and where its `app/uninstalled` webhook posts. */
  shopifyOAuthCallback: string;
  shopifyAppUninstalled: string;
  passwordReset(token: string): string;
  invitation(token: string): string;
  /** The URL a webhook source's platform (a Shopify shop's notification settings) posts to. */
  webhook(sourceId: string): string;
}

/** `publicUrl`: an origin as `config/env.ts` validates it (scheme, host, port; no path, no trailing slash). */
export function createPublicLinks(publicUrl: string): PublicLinks {
  const origin = new URL(publicUrl).origin;
  return {
    origin,
    trackingScript: `${origin}${TRACKING_SCRIPT_PATH}`,
    tiktokOAuthCallback: `${origin}${TIKTOK_OAUTH_CALLBACK_PATH}`,
    shopifyOAuthCallback: `${origin}${SHOPIFY_OAUTH_CALLBACK_PATH}`,
    shopifyAppUninstalled: `${origin}${SHOPIFY_APP_UNINSTALLED_PATH}`,
    passwordReset: (token) => consoleUrl(origin, `reset-password/${encodeURIComponent(token)}`),
    invitation: (token) => consoleUrl(origin, `invitations/${encodeURIComponent(token)}`),
    webhook: (sourceId) => `${origin}${webhookSourcePath(sourceId)}`,
  };
}
