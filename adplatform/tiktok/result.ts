import type { TikTokEnvelope } from '../../domain/tiktok-wire';

/**
 * Outcome of one TikTok call, decided by codes.ts. Remote failures never throw: they arrive as `retryable` or
 * `permanent`. `requestId` is TikTok's `request_id` whenever the answer carried one.
 */
export type TikTokCallResult<TData> = TikTokSuccess<TData> | TikTokRetryable | TikTokPermanent;

export interface TikTokSuccess<TData> {
  outcome: 'success';
  code: number;
  message: string;
  requestId?: string;
  httpStatus: number;
  body: TikTokEnvelope<TData>;
}

export interface TikTokRetryable {
  outcome: 'retryable';
  /** TikTok asked us to slow down (throttling codes, HTTP 429): wait longer than for other transient faults. */
  throttled: boolean;
  /** Absent when no envelope came back (HTTP fault page, network error, timeout). */
  code?: number;
  message: string;
  requestId?: string;
  /** Absent when no response came back at all. */
  httpStatus?: number;
}

export interface TikTokPermanent {
  outcome: 'permanent';
  /** The access token is missing, expired, invalid or revoked: the connection needs re-authorization. */
  tokenInvalid: boolean;
  code?: number;
  /** TikTok's own message, kept verbatim: for 40002 it names the offending field. */
  message: string;
  requestId?: string;
  httpStatus?: number;
}
