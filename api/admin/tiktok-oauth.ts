import type { FastifyPluginAsync } from 'fastify';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { oauthCallbackBody } from '../../contract/settings-api/tiktok-routes';

/**
 * `/admin/workspaces/:workspaceId/tiktok/oauth`: the authorization URL to open, and the callback for when TikTok's
 * redirect cannot reach this server (the owner copies `auth_code` and `state` from the browser's address bar).
 * The browser redirect itself lands on the public `GET /oauth/tiktok/callback`.
 */
export const tiktokOAuthRoutes: FastifyPluginAsync<{ connections: TikTokConnectionService }> = async (app, { connections }) => {
  app.post('/authorize', async (request) => connections.authorizationUrl(workspaceOf(request).id));

  app.post('/callback', async (request) => {
    const { authCode, state } = parseOrReject(oauthCallbackBody, request.body, 'body');
    return connections.completeAuthorization(workspaceOf(request).id, { authCode, state });
  });
};
