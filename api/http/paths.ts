/** Where TikTok sends the owner's browser back (`TIKTOK_OAUTH_REDIRECT_URI` = `<public URL of ingest>` + this). */
export const TIKTOK_OAUTH_CALLBACK_PATH = '/oauth/tiktok/callback';
