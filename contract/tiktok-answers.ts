import { errorAnswer } from './errors';
import type { Answer } from './route';

/** The refusals of the TikTok connection's steps (api/services/tiktok-connection, errors.ts), as each route can give them. */

export const notConnected = errorAnswer('The workspace does not exist, or has no TikTok connection (not_connected)');

export const noAdvertiser = errorAnswer('No advertiser is selected yet (advertiser_not_selected): select one first');

/** A step that calls TikTok with the stored token: the token refused, TikTok's own refusal, TikTok unavailable. */
export function callsTikTok(conflict = 'TikTok refused the stored access token (token_invalid): connect TikTok again'): Record<number, Answer> {
  return {
    409: errorAnswer(conflict),
    502: errorAnswer('TikTok refused the request (tiktok_rejected): `details` has its code, message and request ID'),
    503: errorAnswer('TikTok is unavailable (tiktok_unavailable), or PostgreSQL is: try again shortly'),
  };
}

/** Listing or selecting a pixel: both need the advertiser, and list the pixels at TikTok. */
export const pixelSteps = { 404: notConnected, ...callsTikTok('No advertiser is selected yet (advertiser_not_selected), or TikTok refused the stored access token (token_invalid): connect TikTok again') };

/** Listing the advertiser's Offline or CRM Event Sets at TikTok. */
export const eventSetListing = {
  404: notConnected,
  ...callsTikTok(
    'No advertiser is selected yet (advertiser_not_selected), the connection lacks the permission to read these event sets (permission_missing: `details.permission` and `details.description` name it), or TikTok refused the stored access token (token_invalid): connect TikTok again',
  ),
};

/** Choosing one: from TikTok's list when TikTok can list them, else by ID alone. */
export const eventSetChoosing = { 404: notConnected, ...callsTikTok() };

/** Starting or completing OAuth on a server without TikTok's app settings. */
export const oauthUnavailable = errorAnswer('TikTok OAuth is not configured on this server (oauth_not_configured: a manual token still works), or PostgreSQL is unavailable');

/** Completing OAuth: TikTok exchanges the code, the token is stored and the statistics schedule made. */
export const callbackUnavailable = errorAnswer(
  'TikTok is unavailable (tiktok_unavailable), TikTok OAuth is not configured on this server (oauth_not_configured), or Temporal or PostgreSQL is unavailable',
);

/** A step that creates, reads or removes the statistics schedule, which lives in Temporal. */
export const scheduleUnavailable = errorAnswer('Temporal, which keeps the statistics schedule (temporal_unavailable), or PostgreSQL is unavailable: try again shortly');

/** A test conversion needs the workspace's test event code and a pixel. */
export const testConversionRefused = errorAnswer('The workspace has no test event code (test_event_code_missing) or no pixel selected (pixel_not_selected)');
