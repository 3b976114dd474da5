import type { TransportResponse } from './transport';

/**
 * What one attempt's result means (README "Retries" lists the same rules):
 *  1. 2xx: delivered.
 *  2. Network error (no response): retried.
 *  3. Timeout: retried.
 *  4. 5xx: retried.
 *  5. 408 Request Timeout: retried.
 *  6. 429 Too Many Requests: retried.
 *  7. `Retry-After` (seconds or an HTTP date) on a retried response sets the wait, capped at MAX_RETRY_AFTER_MS.
 *  8. Otherwise the wait is exponential backoff with jitter: BASE_BACKOFF_MS × 2^(retry−1), up to MAX_BACKOFF_MS,
 *     of which a random 50–100 % is waited.
 *  9. Any other status (400 bad data, 401 unknown key, 403 workspace mismatch, 413 too large, 3xx, …): failed at
 *     once, not retried.
 * 10. At most `retryLimit` retries follow the first attempt; then the batch has failed.
 * 11. A retry sends the same messages with the same messageIds; only `sentAt` is new.
 */
export type AttemptResult =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; detail: string; statusCode?: number; retryAfterMs?: number }
  | { outcome: 'reject'; detail: string; statusCode: number };

export const BASE_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 10_000;
export const MAX_RETRY_AFTER_MS = 30_000;

const MAX_DETAIL_LENGTH = 300;

export function classifyResponse(response: TransportResponse, now: Date): AttemptResult {
  const { status } = response;
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  const detail = `HTTP ${status}${serverMessage(response.body)}`;
  if (status >= 500 || status === 408 || status === 429) {
    const retryAfterMs = parseRetryAfterMs(header(response, 'retry-after'), now);
    return { outcome: 'retry', detail, statusCode: status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  return { outcome: 'reject', detail, statusCode: status };
}

export function classifyTransportError(error: unknown): AttemptResult {
  const message = error instanceof Error ? error.message : String(error);
  return { outcome: 'retry', detail: message || 'network error' };
}

/** Milliseconds to wait before retry number `retry` (1 for the first retry). `random` returns a number in [0, 1). */
export function retryDelayMs(result: { retryAfterMs?: number }, retry: number, random: () => number): number {
  if (result.retryAfterMs !== undefined) return Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** `Retry-After` as delta-seconds or an HTTP date, in milliseconds from `now`; undefined when absent or invalid. */
export function parseRetryAfterMs(value: string | undefined, now: Date): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

function header(response: TransportResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `: <message>` from the ingest API's `{ "error", "message" }` body, or the start of any other body. */
function serverMessage(body: string): string {
  const text = body.trim();
  if (text === '') return '';
  let message = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const { message: said, error } = parsed as { message?: unknown; error?: unknown };
      if (typeof said === 'string' && said !== '') message = said;
      else if (typeof error === 'string' && error !== '') message = error;
    }
  } catch {
    // not JSON: keep the text as it is
  }
  return `: ${message.length > MAX_DETAIL_LENGTH ? `${message.slice(0, MAX_DETAIL_LENGTH)}…` : message}`;
}
