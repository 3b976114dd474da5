/** Where pages load the tracking script from; `v1` changes only compatibly, so pages never need to edit their tag. */
export const TRACKING_SCRIPT_PATH = '/js/v1/signalbox.js';

/** Where TikTok sends the owner's browser back (`PUBLIC_URL` + this, unless `TIKTOK_OAUTH_REDIRECT_URI` says otherwise). */
export const TIKTOK_OAUTH_CALLBACK_PATH = '/oauth/tiktok/callback';

/** Where a webhook source's platform posts (`POST`); the source's ID names it, its signature authenticates it. */
export const webhookSourcePath = (sourceId: string) => `/v1/webhooks/${encodeURIComponent(sourceId)}`;
