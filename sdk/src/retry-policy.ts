import type { TransportResponse } from './transport.js';

/**
 * What one attempt's result means (README "Retries" lists the same rules):
 *  1. 2xx: delivered.
 *  2. Network error (no response): retried.
 *  3. Timeout: retried.
 *  4. 5xx: retried.
 *  5. 408 Request Timeout: retried.
 *  6. 429 Too Many Requests: retried, and the whole client pauses sending for the wait.
 *  7. `Retry-After` (seconds or an HTTP date) on a retried response sets the wait, from 1 s up to MAX_RETRY_AFTER_MS,
 *     and does not count against `retryLimit`.
 *  8. Otherwise waits grow exponentially from about 1 s, spread so that `retryLimit` retries span the retry horizon,
 *     of which a random 50–100 % is waited.
 *  9. 400 or 413 naming events by index (`batch[3]…`): those events fail, and the others are sent again at once.
 * 10. Any other status (400, 401 unknown key, 403 workspace mismatch, 413, 3xx, …): failed at once, not retried.
 * 11. A batch fails after `retryLimit` counted retries, or when its retry horizon (counted from its first attempt)
 *     has passed; `retryLimit: 0` sends once.
 * 12. A retry sends the same messages with the same messageIds; only `sentAt` is new.
 */
export type AttemptResult =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; detail: string; statusCode?: number | undefined; retryAfterMs?: number | undefined }
  | { outcome: 'reject'; detail: string; statusCode: number; eventIndexes?: ReadonlySet<number> | undefined };

export const BASE_BACKOFF_MS = 1_000;
export const MIN_RETRY_AFTER_MS = 1_000;
export const MAX_RETRY_AFTER_MS = 300_000;

const MAX_DETAIL_LENGTH = 300;

export function classifyResponse(response: TransportResponse, now: Date): AttemptResult {
  const { status } = response;
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  const body = parseBody(response.body);
  const detail = `HTTP ${status}${serverMessage(response.body, body)}`;
  if (status >= 500 || status === 408 || status === 429) {
    const retryAfterMs = parseRetryAfterMs(header(response, 'retry-after'), now);
    return { outcome: 'retry', detail, statusCode: status, retryAfterMs };
  }
  const eventIndexes = status === 400 || status === 413 ? namedEvents(body) : undefined;
  return { outcome: 'reject', detail, statusCode: status, eventIndexes };
}

export function classifyTransportError(error: unknown): AttemptResult {
  const message = error instanceof Error ? error.message : String(error);
  return { outcome: 'retry', detail: message || 'network error' };
}

/**
 * Backoff before counted retry number `retry` (1 for the first): ceilings `base × r^(retry−1)` whose sum over
 * `retryLimit` retries is the horizon (`base` is 1 s, or less when the horizon is short), of which a random 50–100 %
 * is waited. Defaults (3 retries, 5 minutes): about 1 s, 17 s and 282 s.
 */
export class BackoffSchedule {
  private readonly base: number;
  private readonly ratio: number;

  constructor(retryLimit: number, horizonMs: number) {
    this.base = retryLimit === 0 ? BASE_BACKOFF_MS : Math.min(BASE_BACKOFF_MS, horizonMs / retryLimit);
    this.ratio = growthRatio(retryLimit, horizonMs / this.base);
  }

  delayMs(retry: number, random: () => number): number {
    const ceiling = this.base * this.ratio ** (retry - 1);
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }
}

/** The r ≥ 1 with 1 + r + … + r^(n−1) = total (bisection; total ≥ n, as base ≤ horizon / n). */
function growthRatio(n: number, total: number): number {
  const sum = (r: number): number => (r === 1 ? n : (r ** n - 1) / (r - 1));
  if (n <= 1 || sum(1) >= total) return 1;
  let low = 1;
  let high = total;
  for (let i = 0; i < 100; i += 1) {
    const middle = (low + high) / 2;
    if (sum(middle) > total) high = middle;
    else low = middle;
  }
  return low;
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

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Positions of the events a 400 or 413 names (`batch[3].timestamp …`, `batch[7] is 40000 bytes …`). */
function namedEvents(body: unknown): ReadonlySet<number> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { issues, message } = body as { issues?: unknown; message?: unknown };
  const lines = Array.isArray(issues) ? issues : [message];
  const indexes = new Set<number>();
  for (const line of lines) {
    const found = typeof line === 'string' ? /^batch\[(\d+)\]/.exec(line) : null;
    if (found === null) return undefined;
    indexes.add(Number(found[1]));
  }
  return indexes.size > 0 ? indexes : undefined;
}

/** `: <message>` from the ingest API's `{ "error", "message" }` body, or the start of any other body. */
function serverMessage(text: string, body: unknown): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  let message = trimmed;
  if (typeof body === 'object' && body !== null) {
    const { message: said, error } = body as { message?: unknown; error?: unknown };
    if (typeof said === 'string' && said !== '') message = said;
    else if (typeof error === 'string' && error !== '') message = error;
  }
  return `: ${message.length > MAX_DETAIL_LENGTH ? `${message.slice(0, MAX_DETAIL_LENGTH)}…` : message}`;
}
