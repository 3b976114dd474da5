import type { FastifyPluginAsync } from 'fastify';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import type { TikTokConnectionRepository } from '../../db/repositories/tiktok-connections';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { advertiserBody, pixelBody } from '../../contract/tiktok-fields';

export interface TikTokSelectionRoutesOptions {
  connections: TikTokConnectionService;
  tiktokConnections: Pick<TikTokConnectionRepository, 'summary'>;
}

/**
 * `/admin/workspaces/:workspaceId/tiktok/{advertisers,advertiser,pixels,pixel}`: after authorizing, the owner picks
 * the primary advertiser (which starts the statistics schedule) and then its pixel (the `event_source_id`).
 */
export const tiktokSelectionRoutes: FastifyPluginAsync<TikTokSelectionRoutesOptions> = async (app, { connections, tiktokConnections }) => {
  const selected = async (workspaceId: string) => (await tiktokConnections.summary(workspaceId)) ?? { advertiserId: null, pixelCode: null };

  app.get('/advertisers', async (request) => {
    const workspaceId = workspaceOf(request).id;
    const advertisers = await connections.listAdvertisers(workspaceId);
    return { advertisers, selectedAdvertiserId: (await selected(workspaceId)).advertiserId };
  });

  app.put('/advertiser', async (request) => {
    const { advertiserId } = parseOrReject(advertiserBody, request.body, 'body');
    return connections.selectAdvertiser(workspaceOf(request).id, advertiserId);
  });

  app.get('/pixels', async (request) => {
    const workspaceId = workspaceOf(request).id;
    const pixels = await connections.listPixels(workspaceId);
    return { pixels, selectedPixelCode: (await selected(workspaceId)).pixelCode };
  });

  app.put('/pixel', async (request) => {
    const { pixelCode } = parseOrReject(pixelBody, request.body, 'body');
    return connections.selectPixel(workspaceOf(request).id, pixelCode);
  });
};
