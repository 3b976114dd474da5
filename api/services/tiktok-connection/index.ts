export {
  createTikTokConnectionService,
  type AuthorizationUrl,
  type ManualConnectionInput,
  type TikTokConnectionService,
  type TikTokConnectionServiceDeps,
  type TikTokConnectionView,
  type TikTokOAuthApp,
} from './connection-service';
export { TikTokConnectionError, type TikTokConnectionErrorCode } from './errors';
export { claimedActor, claimedWorkspaceId, createOAuthStateSigner, OAUTH_STATE_LIFETIME_MS, type OAuthStateSigner } from './oauth-state';
export { missingPermissions, normalizeScopes, REQUIRED_TIKTOK_PERMISSIONS, type TikTokPermissionKey } from './permissions';
export { createTestConversionSender, type SendTestConversion } from './test-conversion';
