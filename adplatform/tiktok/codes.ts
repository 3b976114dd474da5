/**
 * The one table that decides the outcome of every TikTok response. Sources are tags of
 * /work/shared/reference/tiktok-api.md; the folder README renders the same table for readers.
 *
 * Precedence: when the body is an envelope with a numeric `code`, the code decides, whatever the HTTP status
 * ("the return code takes precedence over HTTP status", §2.2 [V2] AE). Only a body without an envelope falls back
 * to the HTTP status, and a call that got no response at all is a transport failure.
 */

export type Decision =
  | { readonly outcome: 'success' }
  | { readonly outcome: 'retryable'; readonly throttled: boolean }
  | { readonly outcome: 'permanent'; readonly tokenInvalid: boolean };

/** What a call produced, as seen by the decision table. */
export type ResponseSignal =
  | { readonly kind: 'code'; readonly code: number }
  | { readonly kind: 'http'; readonly status: number }
  | { readonly kind: 'transport'; readonly failure: 'network' | 'timeout' };

export type RuleMatch =
  | { readonly codes: readonly number[] }
  | { readonly codeRange: readonly [number, number] }
  | { readonly anyCode: true }
  | { readonly httpStatuses: readonly number[] }
  | { readonly httpRange: readonly [number, number] }
  | { readonly anyHttpStatus: true }
  | { readonly transport: 'network' | 'timeout' };

export interface ResponseRule {
  readonly match: RuleMatch;
  readonly decision: Decision;
  readonly meaning: string;
  readonly source: string;
}

/** Token expired, empty, invalid, revoked or not valid for the advertiser (§2.3 [V2]): the connection needs re-authorization. */
export const TOKEN_INVALID_CODES: readonly number[] = [40102, 40103, 40104, 40105, 40106, 40107];

/**
 * Invalid parameters (40000) and parameter errors naming a field (40002). On `event/track` one invalid event fails the
 * whole request (§1.1 [V1] Hightouch), so delivery splits such a request to find the events at fault.
 */
export const PARAMETER_ERROR_CODES: readonly number[] = [40000, 40002];

const success: Decision = { outcome: 'success' };
const throttled: Decision = { outcome: 'retryable', throttled: true };
const transient: Decision = { outcome: 'retryable', throttled: false };
const tokenInvalid: Decision = { outcome: 'permanent', tokenInvalid: true };
const permanent: Decision = { outcome: 'permanent', tokenInvalid: false };

/** First matching rule wins. */
export const TIKTOK_RESPONSE_RULES: readonly ResponseRule[] = [
  { match: { codes: [0] }, decision: success, meaning: 'OK', source: '§2.1, §2.3 [V2]' },
  {
    match: { codes: [20001] },
    decision: success,
    meaning: 'Partial success (not documented for event/track)',
    source: '§2.3 [V2] SDK, RS networkHandler, AE',
  },
  {
    match: { codes: [40100, 40133, 40016, 40132, 61000] },
    decision: throttled,
    meaning: 'Too many requests: app QPS/QPM/QPD (40100), advertiser per-path QPS (40133), app per-endpoint (40016), per pixel code (40132), TOO_MANY_REQUESTS_BL (61000)',
    source: '§2.3 [V2] SDK, AE, RS, AB; 40016 [V1] AE; 61000 [V1] SDK',
  },
  {
    match: { codes: [40201, 40202, 50000, 50002, 60001] },
    decision: transient,
    meaning: 'Task not ready (40201), write conflict (40202), system error (50000), TikTok-side timeout (50002), maintenance (60001)',
    source: '§2.3 [V2] SDK, AE, AB',
  },
  {
    match: { codeRange: [51000, 51099] },
    decision: transient,
    meaning: 'Internal service errors (e.g. 51010 internal timeout, 51012 pixel service error)',
    source: '§2.3 [V1] SDK constant table',
  },
  { match: { codeRange: [52000, 52999] }, decision: transient, meaning: 'Internal DB/RPC errors', source: '§2.3 [V1] SDK constant table' },
  { match: { codeRange: [53000, 53999] }, decision: transient, meaning: 'Internal DB/RPC errors', source: '§2.3 [V1] SDK constant table' },
  {
    match: { codes: TOKEN_INVALID_CODES },
    decision: tokenInvalid,
    meaning: 'Access token expired (40102), refresh token expired (40103), token empty (40104), token invalid or revoked (40105), token not valid for the advertiser (40106), refresh token used or invalid (40107): the connection needs re-authorization',
    source: '§2.3 [V2]; §8 token lifetime [V2]',
  },
  {
    match: { anyCode: true },
    decision: permanent,
    meaning: 'Every other code: parameters (40000, 40002, 40006), permission (40001), objects, scopes, allow-lists, banned regions, offline interfaces (40007-41002); 40067 needs a smaller query, not the same one again',
    source: '§2.3 [V2]; §10.8',
  },
  { match: { httpStatuses: [408] }, decision: transient, meaning: 'HTTP 408 request timeout', source: 'HTTP semantics (RFC 9110)' },
  {
    match: { httpStatuses: [429] },
    decision: throttled,
    meaning: 'HTTP 429 (TikTok throttles with 40100 on HTTP 200; a proxy may still send 429)',
    source: '§2.2 [V1] AE; RFC 6585',
  },
  {
    match: { httpRange: [500, 599] },
    decision: transient,
    meaning: 'Gateway faults, e.g. nginx HTML 502',
    source: '§2.2 [V2] AE, RS fixture; §2.3 [V2] RS',
  },
  {
    match: { httpRange: [200, 299] },
    decision: transient,
    meaning: 'HTTP 2xx without a readable envelope (truncated or intermediary answer); retrying is safe because event_id deduplicates',
    source: '§2.1, §5 [V2]',
  },
  {
    match: { anyHttpStatus: true },
    decision: permanent,
    meaning: 'Other HTTP statuses without an envelope, e.g. 404 for a wrong path',
    source: '§2.2 [V2] AE',
  },
  { match: { transport: 'network' }, decision: transient, meaning: 'Connection refused/reset, DNS failure', source: '§2.3 [V2] RS, AE' },
  { match: { transport: 'timeout' }, decision: transient, meaning: 'No answer within the client timeout', source: '§2.3 [V2] RS, AE' },
];

function matches(match: RuleMatch, signal: ResponseSignal): boolean {
  switch (signal.kind) {
    case 'code':
      if ('codes' in match) return match.codes.includes(signal.code);
      if ('codeRange' in match) return signal.code >= match.codeRange[0] && signal.code <= match.codeRange[1];
      return 'anyCode' in match;
    case 'http':
      if ('httpStatuses' in match) return match.httpStatuses.includes(signal.status);
      if ('httpRange' in match) return signal.status >= match.httpRange[0] && signal.status <= match.httpRange[1];
      return 'anyHttpStatus' in match;
    case 'transport':
      return 'transport' in match && match.transport === signal.failure;
  }
}

export function decideOutcome(signal: ResponseSignal): Decision {
  const rule = TIKTOK_RESPONSE_RULES.find((candidate) => matches(candidate.match, signal));
  // Unreachable: the table ends each signal kind with a catch-all row.
  if (!rule) throw new Error(`No TikTok response rule matches ${JSON.stringify(signal)}`);
  return rule.decision;
}
