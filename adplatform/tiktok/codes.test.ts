import { decideOutcome, type Decision } from './codes';

const success: Decision = { outcome: 'success' };
const throttled: Decision = { outcome: 'retryable', throttled: true };
const transient: Decision = { outcome: 'retryable', throttled: false };
const tokenInvalid: Decision = { outcome: 'permanent', tokenInvalid: true };
const permanent: Decision = { outcome: 'permanent', tokenInvalid: false };

/** Every code in /work/shared/reference/tiktok-api.md §2.3, with the outcome we decided for it. */
const REFERENCE_CODES: [number, string, Decision][] = [
  [0, 'OK', success],
  [20001, 'partial success', success],
  [40000, 'invalid parameters', permanent],
  [40001, 'no permission (pixel)', permanent],
  [40002, 'parameter error', permanent],
  [40006, 'API version incompatible', permanent],
  [40007, 'object does not exist', permanent],
  [40010, 'unsupported domain', permanent],
  [40051, 'invalid API version', permanent],
  [40011, 'too many IDs', permanent],
  [40016, 'too frequent (app, endpoint)', throttled],
  [40050, 'duplicated request', permanent],
  [40061, 'INVALID_BATCH_SIZE', permanent],
  [40062, 'PII_NOT_HASHED', permanent],
  [40063, 'INVALID_PARTNER_NAME', permanent],
  [40067, 'report query too large', permanent],
  [40100, 'too frequent (app QPS/QPM/QPD)', throttled],
  [40101, 'invalid auth params', permanent],
  [40102, 'access token expired', tokenInvalid],
  [40103, 'refresh token expired', tokenInvalid],
  [40104, 'access token empty', tokenInvalid],
  [40105, 'access token invalid', tokenInvalid],
  [40106, 'core user invalid', tokenInvalid],
  [40107, 'invalid refresh token', tokenInvalid],
  [40108, 'invalid grant_type', permanent],
  [40110, 'invalid auth_code', permanent],
  [40113, 'app blocked', permanent],
  [40118, 'not on allow-list', permanent],
  [40119, 'developer and advertiser not same company', permanent],
  [40125, 'developer lacks scope', permanent],
  [40130, 'scope not authorized', permanent],
  [40132, 'too frequent for a field value (pixel_code)', throttled],
  [40133, 'advertiser QPS limit for path', throttled],
  [40200, 'async task error', permanent],
  [40201, 'task not ready', transient],
  [40202, 'write conflict', transient],
  [40300, 'advertiser does not exist', permanent],
  [40301, 'advertiser cannot be matched', permanent],
  [40700, 'internal validation error', permanent],
  [41000, 'banned country', permanent],
  [41001, 'interface offline', permanent],
  [41002, 'fields offline', permanent],
  [50000, 'system error', transient],
  [50002, 'TikTok-side timeout', transient],
  [51000, 'internal service error (first of range)', transient],
  [51010, 'internal timeout', transient],
  [51012, 'pixel service error', transient],
  [51099, 'internal service error (last of range)', transient],
  [52000, 'internal DB/RPC error (52xxx)', transient],
  [52999, 'internal DB/RPC error (52xxx)', transient],
  [53000, 'internal DB/RPC error (53xxx)', transient],
  [53999, 'internal DB/RPC error (53xxx)', transient],
  [60001, 'maintenance', transient],
  [61000, 'TOO_MANY_REQUESTS_BL', throttled],
];

describe('decideOutcome: body codes (the code wins over the HTTP status)', () => {
  it.each(REFERENCE_CODES)('code %d (%s)', (code, _meaning, decision) => {
    expect(decideOutcome({ kind: 'code', code })).toEqual(decision);
  });

  it.each([
    [51100, 'just past the 51000-51099 range'],
    [54000, 'a 54xxx code'],
    [1, 'an undocumented small code'],
    [-1, 'a negative code'],
  ])('treats code %d (%s) as permanent', (code) => {
    expect(decideOutcome({ kind: 'code', code })).toEqual(permanent);
  });
});

describe('decideOutcome: answers without an envelope', () => {
  it.each<[number, Decision]>([
    [500, transient],
    [502, transient],
    [503, transient],
    [504, transient],
    [599, transient],
    [408, transient],
    [429, throttled],
    [200, transient],
    [204, transient],
    [400, permanent],
    [401, permanent],
    [403, permanent],
    [404, permanent],
    [413, permanent],
  ])('HTTP %d', (status, decision) => {
    expect(decideOutcome({ kind: 'http', status })).toEqual(decision);
  });

  it.each(['network', 'timeout'] as const)('%s failures are retryable, not throttling', (failure) => {
    expect(decideOutcome({ kind: 'transport', failure })).toEqual(transient);
  });
});
