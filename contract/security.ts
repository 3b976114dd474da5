import type { Security, SecuritySchemeName } from './route';

/** The console's session cookie (httpOnly, path /console). */
export const SESSION_COOKIE = 'sbx_session';
/** The header every console API write carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** The OpenAPI security schemes, as the API checks them (api/ingest/auth, api/admin/admin-token.ts, api/console/auth.ts). */
export const SECURITY_SCHEMES: Readonly<Record<SecuritySchemeName, Readonly<Record<string, string>>>> = {
  writeKeyBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'An API key of the workspace (secret dk_, browser pk_ or app ak_) as the user name, with an empty password, as Segment\'s and RudderStack\'s libraries send it. Pages and Segment\'s browser library may send it as `writeKey` in the JSON body instead.',
  },
  writeKeyBearer: { type: 'http', scheme: 'bearer', description: 'An API key of the workspace: `Authorization: Bearer <key>`.' },
  writeKeyQuery: { type: 'apiKey', in: 'query', name: 'writeKey', description: 'An API key in the query string, for `sendBeacon` (browser keys only: a secret key in a URL is refused).' },
  adminToken: { type: 'http', scheme: 'bearer', description: 'The settings API\'s `ADMIN_TOKEN`: `Authorization: Bearer <ADMIN_TOKEN>`. API keys are refused here.' },
  consoleSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The console\'s session cookie, set by `POST /console/api/session`.' },
  csrfToken: { type: 'apiKey', in: 'header', name: CSRF_HEADER, description: 'The session\'s CSRF token (in the session answer), required on every write of the console API.' },
};

export const PUBLIC: Security = [];
/** Ingest accepts a key in any of these places. */
export const WRITE_KEY: Security = [['writeKeyBasic'], ['writeKeyBearer'], ['writeKeyQuery']];
export const ADMIN_TOKEN: Security = [['adminToken']];
export const CONSOLE_READ: Security = [['consoleSession']];
export const CONSOLE_WRITE: Security = [['consoleSession', 'csrfToken']];
