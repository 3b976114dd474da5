import type { FastifyPluginAsync } from 'fastify';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import type { TikTokConnectionRepository } from '../../db/repositories/tiktok-connections';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { advertiserBody, eventSetBody, pixelBody } from '../../contract/tiktok-fields';
import { EVENT_SET_KINDS, eventSetPath } from '../../contract/event-set-kinds';

export interface TikTokSelectionRoutesOptions {
  connections: TikTokConnectionService;
  tiktokConnections: Pick<TikTokConnectionRepository, 'summary'>;
}

/**
 * `/admin/workspaces/:workspaceId/tiktok/{advertisers,advertiser,pixels,pixel}`: after authorizing, the owner picks
 * the primary advertiser (which starts the statistics schedule) and then its pixel (the `event_source_id`); and,
 * under `{offline,crm}-event-set(s)`, the advertiser's Offline and CRM Event Sets for events of those kinds.
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

  for (const kind of EVENT_SET_KINDS) {
    app.get(`${eventSetPath(kind)}s`, async (request) => {
      const workspaceId = workspaceOf(request).id;
      const eventSets = await connections.listEventSets(workspaceId, kind);
      return { eventSets, selectedEventSetId: (await tiktokConnections.summary(workspaceId))?.[`${kind}EventSetId`] ?? null };
    });

    app.put(eventSetPath(kind), async (request) => {
      const { eventSetId } = parseOrReject(eventSetBody, request.body, 'body');
      return connections.selectEventSet(workspaceOf(request).id, kind, eventSetId);
    });
  }
};
