export { createTikTokClient, type TikTokClient, type TikTokClientOptions } from './client';
export { decideOutcome, PARAMETER_ERROR_CODES, TIKTOK_RESPONSE_RULES, TOKEN_INVALID_CODES, type Decision, type ResponseRule, type ResponseSignal } from './codes';
export { createTrackRequestValidator, type TrackValidation } from './track-request/validate';
export {
  TIKTOK_ACCESS_TOKEN_HEADER,
  TIKTOK_API_VERSION,
  TIKTOK_DEFAULT_AUTH_URL,
  TIKTOK_DEFAULT_BASE_URL,
  TIKTOK_DEFAULT_TIMEOUT_MS,
  TIKTOK_LIMITS,
  TIKTOK_PATHS,
  TIKTOK_SANDBOX_BASE_URL,
} from './config';
export type { TikTokCallRecord } from './request';
export type { TikTokCallResult, TikTokPermanent, TikTokRetryable, TikTokSuccess } from './result';
export type * from '../../domain/tiktok-wire';
export type * from './marketing-types';
