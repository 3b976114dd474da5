import type { FastifyPluginAsync } from 'fastify';
import type { TikTokConnectionService } from '../../services/tiktok-connection';
import { REQUIRED_TIKTOK_PERMISSIONS, type TikTokPermissionKey } from '../../services/tiktok-connection';
import type { Repositories } from '../../../db/repositories';
import { AD_URL_PARAMETERS } from '../../../domain/ad-click';
import { notFound } from '../../http/http-error';
import { createKeyBody, keyParams } from '../../../contract/api-keys';
import type { PublicLinks } from '../../http/public-links';
import type { ApiKeyService } from '../../services/settings/api-keys';
import { parseOrReject } from '../../http/validation';
import { actorOf, currentWorkspace, needs } from '../auth';
import { advertiserBody, appBody, eventSetBody, pixelBody } from '../../../contract/tiktok-fields';
import { EVENT_SET_KINDS, eventSetPath } from '../../../contract/event-set-kinds';


export interface SourceRoutesOptions {
  repos: Repositories;
  connections: TikTokConnectionService;
  keys: ApiKeyService;
  links: PublicLinks;
}

/** Settings > Sources (spec §4.5 steps 1–2): the TikTok connection, API keys, the tag and the ad URL parameters. */
export const sourceRoutes: FastifyPluginAsync<SourceRoutesOptions> = async (app, { repos, connections, keys, links }) => {
  const editor = { preHandler: needs('editor') };
  const owner = { preHandler: needs('owner') };
  const workspaceId = (request: Parameters<typeof currentWorkspace>[0]) => currentWorkspace(request).id;

  app.get('/tiktok', async (request) => {
    const status = await connections.status(workspaceId(request)).catch(async (error: unknown) => {
      // The schedule lives in Temporal; the page still shows the connection while Temporal is unreachable.
      const summary = await repos.tiktokConnections.summary(workspaceId(request));
      if (summary === undefined) throw error;
      request.log.warn({ err: error }, 'statistics schedule unreadable');
      return { ...summary, missingPermissions: [] as TikTokPermissionKey[], nextStep: null, schedule: null };
    });
    return {
      connection: status ?? null,
      permissions: REQUIRED_TIKTOK_PERMISSIONS.map((p) => ({ key: p.key, description: p.description, granted: status?.grantedScopes == null ? null : !status.missingPermissions.includes(p.key) })),
    };
  });

  app.post('/tiktok/authorize', editor, async (request) => connections.authorizationUrl(workspaceId(request), actorOf(request)));

  app.get('/tiktok/advertisers', async (request) => {
    const id = workspaceId(request);
    return { advertisers: await connections.listAdvertisers(id), selectedAdvertiserId: (await repos.tiktokConnections.summary(id))?.advertiserId ?? null };
  });

  app.put('/tiktok/advertiser', editor, async (request) => {
    const { advertiserId } = parseOrReject(advertiserBody, request.body, 'body');
    return connections.selectAdvertiser(workspaceId(request), advertiserId, actorOf(request));
  });

  app.get('/tiktok/pixels', async (request) => {
    const id = workspaceId(request);
    return { pixels: await connections.listPixels(id), selectedPixelCode: (await repos.tiktokConnections.summary(id))?.pixelCode ?? null };
  });

  app.put('/tiktok/pixel', editor, async (request) => {
    const { pixelCode } = parseOrReject(pixelBody, request.body, 'body');
    return connections.selectPixel(workspaceId(request), pixelCode, actorOf(request));
  });

  for (const kind of EVENT_SET_KINDS) {
    app.get(`/tiktok${eventSetPath(kind)}s`, async (request) => {
      const id = workspaceId(request);
      return { eventSets: await connections.listEventSets(id, kind), selectedEventSetId: (await repos.tiktokConnections.summary(id))?.[`${kind}EventSetId`] ?? null };
    });

    app.put(`/tiktok${eventSetPath(kind)}`, editor, async (request) => {
      const { eventSetId } = parseOrReject(eventSetBody, request.body, 'body');
      return connections.selectEventSet(workspaceId(request), kind, eventSetId, actorOf(request));
    });
  }

  app.put('/tiktok/app', editor, async (request) => {
    const { appId } = parseOrReject(appBody, request.body, 'body');
    const summary = await connections.setAppId(workspaceId(request), appId, actorOf(request));
    if (summary === undefined) throw notFound('this workspace has no TikTok connection: connect TikTok before setting its App ID');
    return summary;
  });

  app.delete('/tiktok', editor, async (request) => {
    if (!(await connections.disconnect(workspaceId(request), actorOf(request)))) throw notFound('this workspace has no TikTok connection');
    return { deleted: true };
  });

  app.get('/api-keys', async (request) => ({ apiKeys: await repos.apiKeys.list(workspaceId(request)) }));

  app.post('/api-keys', owner, async (request, reply) => {
    const { name, kind } = parseOrReject(createKeyBody, request.body, 'body');
    return reply.code(201).send(await keys.create(actorOf(request), workspaceId(request), name, kind));
  });

  app.delete('/api-keys/:keyId', owner, async (request) => {
    const { keyId } = parseOrReject(keyParams, request.params, 'path');
    const revoked = await keys.revoke(actorOf(request), workspaceId(request), keyId);
    if (revoked === undefined) throw notFound(`API key ${keyId} does not exist in this workspace`);
    return revoked;
  });

  app.get('/install', async () => ({ ingestUrl: links.origin, scriptUrl: links.trackingScript, adUrlParameters: AD_URL_PARAMETERS }));
};
