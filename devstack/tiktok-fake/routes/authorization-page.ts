import type { FastifyInstance } from 'fastify';
import { FULL_GRANT_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';

export const AUTHORIZATION_PAGE_PATH = '/portal/auth';

/**
 * Stands in for TikTok's advertiser authorization page (§8 "Authorization URL"): instead of a login and a consent
 * screen, the owner is taken to have approved at once every seeded advertiser and every permission, and the browser
 * is sent back to `redirect_uri` with `auth_code` and the echoed `state` (§8 "Callback"). A test wanting a narrower
 * grant issues a code through `POST /_fake/oauth/codes` instead.
 */
export function registerAuthorizationPage(app: FastifyInstance, state: FakeTikTokState): void {
  app.get(AUTHORIZATION_PAGE_PATH, (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const { app_id: appId, redirect_uri: redirectUri, state: echoed } = query;
    if (appId === undefined || !state.oauth.hasApp(appId)) {
      return reply.code(400).type('text/html').send('<h1>Authorization failed</h1><p>app_id is missing or unknown.</p>');
    }
    if (redirectUri === undefined || !URL.canParse(redirectUri)) {
      return reply.code(400).type('text/html').send('<h1>Authorization failed</h1><p>redirect_uri is missing or not a URL.</p>');
    }
    const code = state.oauth.issueCode(
      { appId, advertiserIds: state.catalog.allAdvertiserIds(), scopes: [...FULL_GRANT_SCOPES] },
      state.clock.now().getTime(),
    );
    const target = new URL(redirectUri);
    target.searchParams.set('auth_code', code);
    if (echoed !== undefined) target.searchParams.set('state', echoed);
    return reply.redirect(target.toString(), 302);
  });
}
