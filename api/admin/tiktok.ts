import type { FastifyPluginAsync } from 'fastify';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { manualConnectionBody } from '../../contract/settings-api/tiktok-routes';
import { appBody } from '../../contract/tiktok-fields';

export interface TikTokRoutesOptions {
  connections: TikTokConnectionService;
}

/**
 * `/admin/workspaces/:workspaceId/tiktok`: the connection as a whole (manual token, status, disconnect, mobile App
 * ID). The token is stored encrypted and never returned; connecting or disconnecting also creates or removes the
 * workspace's statistics schedule.
 */
export const tiktokRoutes: FastifyPluginAsync<TikTokRoutesOptions> = async (app, { connections }) => {
  app.put('/', async (request) => {
    const body = parseOrReject(manualConnectionBody, request.body, 'body');
    return connections.connectManually(workspaceOf(request).id, { accessToken: body.accessToken, advertiserId: body.advertiserId ?? null, pixelCode: body.pixelCode });
  });

  app.put('/app', async (request) => {
    const { appId } = parseOrReject(appBody, request.body, 'body');
    const summary = await connections.setAppId(workspaceOf(request).id, appId);
    if (summary === undefined) throw notFound('this workspace has no TikTok connection: connect TikTok before setting its App ID');
    return summary;
  });

  app.get('/', async (request) => {
    const status = await connections.status(workspaceOf(request).id);
    if (status === undefined) {
      throw notFound('this workspace has no TikTok connection: start OAuth with POST …/tiktok/oauth/authorize, or PUT a token with accessToken and pixelCode');
    }
    return status;
  });

  app.delete('/', async (request) => {
    if (!(await connections.disconnect(workspaceOf(request).id))) throw notFound('this workspace has no TikTok connection');
    return { deleted: true };
  });
};
