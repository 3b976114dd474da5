import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import { decideOutcome, type Decision } from './codes';
import { TIKTOK_ACCESS_TOKEN_HEADER } from './config';
import type { TikTokCallResult } from './result';
import type { TikTokEnvelope } from '../../domain/tiktok-wire';

/** One call as it ended, for metrics: the path, how long it took and what it came to. */
export interface TikTokCallRecord {
  path: string;
  seconds: number;
  result: TikTokCallResult<unknown>;
}

/** Where and how calls are made; shared by every endpoint of the client. */
export interface TikTokTransport {
  baseUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
  onCall?: (call: TikTokCallRecord) => void;
}

export type TikTokQueryValue = string | number | boolean | readonly unknown[] | Record<string, unknown>;

export interface TikTokRequest {
  method: 'GET' | 'POST';
  /** Full API path with its trailing `/`, e.g. `/open_api/v1.3/event/track/`. */
  path: string;
  /** Omitted only by calls that take no token (the OAuth code exchange). */
  accessToken?: string;
  query?: Readonly<Record<string, TikTokQueryValue>>;
  /** Sent as JSON. */
  body?: unknown;
}

/** Arrays and objects travel as JSON strings in TikTok query parameters (§0 "GET array/object params"). */
export function buildTikTokUrl(baseUrl: string, path: string, query?: TikTokRequest['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    url.searchParams.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return url.toString();
}

/** One call to a Marketing API endpoint, turned into a TikTokCallResult. Never throws for remote failures. */
export async function callTikTok<TData>(
  transport: TikTokTransport,
  request: TikTokRequest,
): Promise<TikTokCallResult<TData>> {
  const started = performance.now();
  const result = await exchange<TData>(transport, request);
  transport.onCall?.({ path: request.path, seconds: (performance.now() - started) / 1000, result });
  return result;
}

async function exchange<TData>(transport: TikTokTransport, request: TikTokRequest): Promise<TikTokCallResult<TData>> {
  const url = buildTikTokUrl(transport.baseUrl, request.path, request.query);
  const headers: Record<string, string> = {};
  if (request.accessToken !== undefined) headers[TIKTOK_ACCESS_TOKEN_HEADER] = request.accessToken;
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  if (payload !== undefined) headers['Content-Type'] = 'application/json';

  const signal = AbortSignal.timeout(transport.timeoutMs);
  let response: Response | undefined;
  let text: string;
  try {
    response = await transport.fetch(url, { method: request.method, headers, body: payload, signal });
    text = await response.text();
  } catch (error) {
    const httpStatus = response?.status;
    if (signal.aborted) {
      return transportFailure('timeout', `TikTok did not answer ${request.path} within ${transport.timeoutMs} ms`, httpStatus);
    }
    return transportFailure('network', `Network error calling TikTok ${request.path}: ${describeError(error)}`, httpStatus);
  }
  return interpretResponse<TData>(response.status, response.statusText, text);
}

function interpretResponse<TData>(httpStatus: number, statusText: string, text: string): TikTokCallResult<TData> {
  const envelope = parseEnvelope<TData>(text);
  if (!envelope) {
    const message = `HTTP ${httpStatus} ${statusText} without a TikTok envelope: ${summarize(text)}`;
    return failure(decideOutcome({ kind: 'http', status: httpStatus }), { message, httpStatus });
  }
  const details = { code: envelope.code, message: envelope.message, requestId: envelope.request_id, httpStatus };
  const decision = decideOutcome({ kind: 'code', code: envelope.code });
  if (decision.outcome === 'success') return { outcome: 'success', ...details, body: envelope };
  return failure(decision, details);
}

function transportFailure<TData>(
  kind: 'network' | 'timeout',
  message: string,
  httpStatus: number | undefined,
): TikTokCallResult<TData> {
  return failure(decideOutcome({ kind: 'transport', failure: kind }), { message, httpStatus });
}

interface FailureDetails {
  code?: number;
  message: string;
  requestId?: string;
  httpStatus?: number;
}

function failure<TData>(decision: Decision, details: FailureDetails): TikTokCallResult<TData> {
  switch (decision.outcome) {
    case 'retryable':
      return { outcome: 'retryable', throttled: decision.throttled, ...details };
    case 'permanent':
      return { outcome: 'permanent', tokenInvalid: decision.tokenInvalid, ...details };
    case 'success':
      // codes.ts only lets an envelope code succeed; a bare HTTP status or transport failure never does.
      throw new Error('TikTok response rules declared a non-envelope answer a success');
  }
}

/** An envelope is a JSON object with an integer `code`; `message`, `request_id` and `data` are optional. */
function parseEnvelope<TData>(text: string): TikTokEnvelope<TData> | undefined {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const candidate = parsed as Record<string, unknown>;
  if (typeof candidate.code !== 'number' || !Number.isInteger(candidate.code)) return undefined;
  return {
    ...(candidate as object),
    code: candidate.code,
    message: typeof candidate.message === 'string' ? candidate.message : '',
    request_id: typeof candidate.request_id === 'string' ? candidate.request_id : undefined,
  } as TikTokEnvelope<TData>;
}

/** A JSON number of 16+ digits, not inside a string: an ID or permission ID that `JSON.parse` would round. */
const LONG_NUMBER = /[:[,]\s*-?\d{16,}/;

/**
 * IDs above 2^53 (advertiser, campaign and ad IDs in older examples, permission IDs in `scope`) must not be rounded:
 * such numbers are kept as their decimal strings. The plain parser serves every answer without them (most), fast.
 */
export function parseJson(text: string): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return parseLossless(text, undefined, (value) => (isSafeNumber(value) ? Number(value) : value));
}

/** Gateway pages are HTML: keep a short, tag-free excerpt for the failure message. */
function summarize(text: string): string {
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  if (plain === '') return '(empty body)';
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** Duck-typed: errors raised inside fetch may come from another realm (e.g. under a test runner's VM context). */
function describeError(error: unknown): string {
  const { message, cause } = asErrorLike(error);
  if (cause === undefined) return message;
  const { message: causeMessage, code } = asErrorLike(cause);
  return code ? `${message} (${code}: ${causeMessage})` : `${message} (${causeMessage})`;
}

function asErrorLike(value: unknown): { message: string; code?: string; cause?: unknown } {
  if (typeof value !== 'object' || value === null) return { message: String(value) };
  const { message, code, cause } = value as { message?: unknown; code?: unknown; cause?: unknown };
  return {
    message: typeof message === 'string' ? message : String(value),
    code: typeof code === 'string' ? code : undefined,
    cause,
  };
}
