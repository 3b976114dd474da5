/** Where pages load the tracking script from; `v1` changes only compatibly, so pages never need to edit their tag. */
export const TRACKING_SCRIPT_PATH = '/js/v1/signalbox.js';

/** Where TikTok sends the owner's browser back (`PUBLIC_URL` + this, unless `TIKTOK_OAUTH_REDIRECT_URI` says otherwise). */
export const TIKTOK_OAUTH_CALLBACK_PATH = '/oauth/tiktok/callback';
