/** Where pages load the tracking script from; `v1` changes only compatibly, so pages never need to edit their tag. */
export const TRACKING_SCRIPT_PATH = '/js/v1/signalbox.js';

/** Where TikTok sends the owner's browser back (`PUBLIC_URL` + this, unless `TIKTOK_OAUTH_REDIRECT_URI` says otherwise). */
export const TIKTOK_OAUTH_CALLBACK_PATH = '/oauth/tiktok/callback';

/** Where Shopify sends the owner's browser back after approving the Signalbox app (register it in the app's settings). */
export const SHOPIFY_OAUTH_CALLBACK_PATH = '/oauth/shopify/callback';

/** Where Shopify posts `app/uninstalled` for a shop that removed the Signalbox app (subscribed by Connect Shopify). */
export const SHOPIFY_APP_UNINSTALLED_PATH = '/v1/shopify/app-uninstalled';

/** Where Shopify posts the app's privacy topics for every shop (set as the app's compliance webhook URL in its settings). */
export const SHOPIFY_COMPLIANCE_PATH = '/v1/shopify/compliance';

/** Where a webhook source's platform posts (`POST`); the source's ID names it, its signature authenticates it. */
export const webhookSourcePath = (sourceId: string) => `/v1/webhooks/${encodeURIComponent(sourceId)}`;
