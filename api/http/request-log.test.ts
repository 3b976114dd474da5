import { ALL_ROUTES } from '../../contract';
import { createPublicLinks } from './public-links';
import { redactUrl } from './request-log';

const TOKEN = 'Xy9_-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

describe('redactUrl', () => {
  it.each([
    ['/v1/track?writeKey=pk_abc123def456ghi789jkl', '/v1/track?writeKey=[redacted]'],
    ['/v1/batch?token=s3cret&limit=5', '/v1/batch?token=[redacted]&limit=5'],
    ['/oauth/tiktok/callback?auth_code=one-time&state=signed.state', '/oauth/tiktok/callback?auth_code=[redacted]&state=[redacted]'],
    ['/x?code=1&key=2&api_key=3&apiKey=4&access_token=5&write_key=6', '/x?code=[redacted]&key=[redacted]&api_key=[redacted]&apiKey=[redacted]&access_token=[redacted]&write_key=[redacted]'],
    ['/x?WRITEKEY=a&%77riteKey=b', '/x?WRITEKEY=[redacted]&%77riteKey=[redacted]'],
    ['/v1/whatever/dk_0123456789abcdefghijklmnopqrstuv', '/v1/whatever/[redacted]'],
    ['/admin/workspaces/ws_1/reports?level=ad&from=2026-01-01', '/admin/workspaces/ws_1/reports?level=ad&from=2026-01-01'],
    [`/console/invitations/${TOKEN}`, '/console/invitations/[redacted]'],
    [`/console/api/invitations/${TOKEN}`, '/console/api/invitations/[redacted]'],
    [`/console/api/invitations/${TOKEN}/accept`, '/console/api/invitations/[redacted]/accept'],
    [`/console/reset-password/${TOKEN}`, '/console/reset-password/[redacted]'],
    [`/console/api/password-resets/${TOKEN}`, '/console/api/password-resets/[redacted]'],
    ['/console/api/password-resets/short', '/console/api/password-resets/[redacted]'],
    [`/Console/API/Password-Resets/${TOKEN}/`, '/Console/API/Password-Resets/[redacted]/'],
    ['/console/api/password-resets', '/console/api/password-resets'],
    ['/js/v1/config/pk_test', '/js/v1/config/[redacted]'],
    ['/oauth/tiktok/callback?code=one-time&State=signed.state&Auth-Code=x', '/oauth/tiktok/callback?code=[redacted]&State=[redacted]&Auth-Code=[redacted]'],
    ['/console/api/sessions/1a2b3c', '/console/api/sessions/1a2b3c'],
    ['/console/api/workspaces/ws_1/invitations/inv_0123abcd', '/console/api/workspaces/ws_1/invitations/inv_0123abcd'],
    ['/console/w/ws_1/people?email=jo%40shop.example', '/console/w/ws_1/people?email=[redacted]'],
    ['/console/api/workspaces/ws_1/conversions?q=Jo@Shop.example&status=failed&timeZone=UTC', '/console/api/workspaces/ws_1/conversions?q=[redacted]&status=failed&timeZone=UTC'],
    ['/console/w/ws_1/people?phone=%2B4915112345678', '/console/w/ws_1/people?phone=[redacted]'],
    ['/readyz', '/readyz'],
  ])('%s → %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});

/** A path parameter of each name either carries a secret, and is redacted, or is an identifier safe to log. */
const LOGGABLE_PATH_PARAMETERS = ['workspaceId', 'keyId', 'sourceId', 'conversionId', 'userId', 'invitationId', 'sessionId', 'event', 'file'];
const SECRET_PATH_PARAMETERS = ['token', 'key'];

describe('the request log and the routes', () => {
  const withParameters = ALL_ROUTES.map((route) => ({ route, names: (route.path.match(/:\w+/g) ?? []).map((name) => name.slice(1)) })).filter(({ names }) => names.length > 0);

  it('knows every path parameter of the contract: a new one must be declared a secret or safe to log here', () => {
    const names = [...new Set(withParameters.flatMap(({ names }) => names))].sort();
    expect(names).toEqual([...LOGGABLE_PATH_PARAMETERS, ...SECRET_PATH_PARAMETERS].sort());
  });

  it.each(withParameters.map(({ route, names }) => [`${route.method} ${route.path}`, route.path, names] as const))('%s: its secret parameters are redacted, its IDs kept', (_name, path, names) => {
    const values = new Map(names.map((name, index) => [name, `${name}-value-${index}-0123456789abcdef`]));
    const url = path.replace(/:(\w+)/g, (_whole, name: string) => values.get(name) as string);
    const redacted = redactUrl(url);
    for (const [name, value] of values) expect({ name, logged: redacted.includes(value) }).toEqual({ name, logged: !SECRET_PATH_PARAMETERS.includes(name) });
  });

  it('redacts the token of every link Signalbox mails or shows', () => {
    const links = createPublicLinks('https://signalbox.shop.example');
    for (const link of [links.passwordReset(TOKEN), links.invitation(TOKEN)]) {
      const { pathname, search } = new URL(link);
      expect(redactUrl(`${pathname}${search}`)).not.toContain(TOKEN);
    }
  });
});
