/**
 * The one list of names that carry a credential or a one-time code, which no log may hold: API keys, tokens (password
 * reset, invitation, session, OAuth), OAuth's `auth_code`/`code` and `state`, secrets and passwords. The request log
 * hides their values in URLs (query parameters, and path segments of routes whose parameter has such a name); every
 * process's logger hides them as fields of what it logs.
 *
 * `anywhere`: a secret wherever the name appears. `url`: a secret in a URL (`?code=`, `?state=`, `/config/:key`), but as a
 * field of a logged object an ordinary thing to keep (an error's `code`, a schedule's `state`).
 */
const SECRET_NAMES = {
  writeKey: 'anywhere',
  apiKey: 'anywhere',
  adminToken: 'anywhere',
  token: 'anywhere',
  accessToken: 'anywhere',
  refreshToken: 'anywhere',
  csrfToken: 'anywhere',
  authCode: 'anywhere',
  secret: 'anywhere',
  signingSecret: 'anywhere',
  password: 'anywhere',
  currentPassword: 'anywhere',
  newPassword: 'anywhere',
  signature: 'anywhere',
  clientSecret: 'anywhere',
  key: 'url',
  code: 'url',
  state: 'url',
  session: 'url',
  sig: 'url',
  hmac: 'url',
} as const satisfies Record<string, 'anywhere' | 'url'>;

/** `writeKey`, `write_key`, `Write-Key` and `WRITEKEY` are one name. */
const normalised = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

const IN_URLS = new Set(Object.keys(SECRET_NAMES).map(normalised));

/** Whether a query or path parameter of this name carries a secret (any spelling: camelCase, snake_case, any case). */
export function isSecretInUrl(name: string): boolean {
  return IN_URLS.has(normalised(name));
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The names that are secrets as fields of logged objects, as code spells them: camelCase and snake_case. */
export const SECRET_FIELD_NAMES: readonly string[] = [
  ...new Set(
    Object.entries(SECRET_NAMES)
      .filter(([, where]) => where === 'anywhere')
      .flatMap(([name]) => [name, snakeCase(name)]),
  ),
];

/** Headers that carry credentials: the session cookie, API keys, the CSRF token, TikTok's `Access-Token`, Shopify's `X-Shopify-Access-Token`. */
export const SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-csrf-token', 'access-token', 'x-shopify-access-token'];

/** pino's `redact.paths` for every logger: the secret fields and headers, at the top of a logged object and one level down. */
export const LOG_REDACT_PATHS: readonly string[] = [
  ...SECRET_FIELD_NAMES.flatMap((field) => [field, `*.${field}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];
