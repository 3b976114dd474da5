import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { jsonBody, requiredText } from '../http/fields';
import { advertiserIdField, pixelCodeField } from '../http/tiktok-fields';
import { workspaceOf } from './workspace-scope';

/** Manual entry of an Events API access token from TikTok Events Manager (the alternative to OAuth). */
const manualConnectionBody = jsonBody({
  accessToken: requiredText(2048).regex(/^\S+$/, 'must not contain spaces'),
  advertiserId: advertiserIdField.nullish(),
  pixelCode: pixelCodeField,
});

/** The TikTok App ID (Events Manager → the app's data source) that mobile-app events are sent under; null clears it. */
const appBody = jsonBody({
  appId: z
    .string({ error: 'must be a string of digits, or null to stop sending app events' })
    .trim()
    .regex(/^\d{1,32}$/, 'must be the TikTok App ID: digits only, e.g. 7123456789012345678')
    .nullable(),
});

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
