/** Why a TikTok connection step failed; `httpStatus` is what the settings API should answer. */
export type TikTokConnectionErrorCode =
  | 'oauth_not_configured'
  | 'workspace_not_found'
  | 'state_invalid'
  | 'state_expired'
  | 'state_reused'
  | 'state_workspace_mismatch'
  | 'auth_code_rejected'
  | 'missing_permissions'
  | 'not_connected'
  | 'advertiser_not_accessible'
  | 'advertiser_not_selected'
  | 'pixel_not_selected'
  | 'pixel_not_found'
  | 'event_set_not_found'
  | 'permission_missing'
  | 'token_invalid'
  | 'tiktok_rejected'
  | 'tiktok_unavailable'
  | 'test_event_code_missing';

const HTTP_STATUS: Record<TikTokConnectionErrorCode, number> = {
  oauth_not_configured: 503,
  workspace_not_found: 404,
  state_invalid: 400,
  state_expired: 400,
  state_reused: 400,
  state_workspace_mismatch: 400,
  auth_code_rejected: 400,
  missing_permissions: 400,
  not_connected: 404,
  advertiser_not_accessible: 400,
  advertiser_not_selected: 409,
  pixel_not_selected: 409,
  pixel_not_found: 400,
  event_set_not_found: 400,
  permission_missing: 409,
  token_invalid: 409,
  tiktok_rejected: 502,
  tiktok_unavailable: 503,
  test_event_code_missing: 409,
};

export class TikTokConnectionError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: TikTokConnectionErrorCode,
    message: string,
    /** Extra facts for the caller, e.g. `{ missing: [...] }` or TikTok's `{ tiktokCode, requestId }`. */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'TikTokConnectionError';
    this.httpStatus = HTTP_STATUS[code];
  }
}
