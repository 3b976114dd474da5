import type { FastifyPluginAsync } from 'fastify';
import type { WebhookSourceRepository } from '../../../db/repositories/webhook-sources';
import { notFound } from '../../http/http-error';
import type { PublicLinks } from '../../http/public-links';
import { parseOrReject } from '../../http/validation';
import { NEW_SOURCE_ID, previewMapping, shownSecret, sourceView } from '../../http/webhook-sources';
import { createSourceBody, previewBody, secretBody, updateSourceBody } from '../../../contract/webhook-sources';
import { sourceParams } from '../../../contract/webhook-sources';
import type { WebhookSourceService } from '../../services/settings/webhook-sources';
import { actorOf, currentWorkspace, needs } from '../auth';

const missing = (sourceId: string) => notFound(`webhook source ${sourceId} does not exist in this workspace`);

/** Sources > Shopify and webhooks: every member sees them; editors create, change, give new secrets and delete. */
export const webhookSourceConsoleRoutes: FastifyPluginAsync<{ sources: WebhookSourceRepository; service: WebhookSourceService; links: PublicLinks }> = async (app, { sources, service, links }) => {
  const editor = { preHandler: needs('editor') };
  const workspaceId = (request: Parameters<typeof currentWorkspace>[0]) => currentWorkspace(request).id;

  app.get('/sources', async (request) => ({ sources: (await sources.list(workspaceId(request))).map((source) => sourceView(source, links)) }));

  app.post('/sources', editor, async (request, reply) => {
    const { signingSecret, ...input } = parseOrReject(createSourceBody, request.body, 'body');
    const created = await service.create(actorOf(request), workspaceId(request), { ...input, signingSecret });
    return reply.code(201).send({ ...sourceView(created, links), ...shownSecret(created, signingSecret) });
  });

  app.patch('/sources/:sourceId', editor, async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const updated = await service.update(actorOf(request), workspaceId(request), sourceId, parseOrReject(updateSourceBody, request.body, 'body'));
    if (updated === undefined) throw missing(sourceId);
    return sourceView(updated, links);
  });

  app.post('/sources/:sourceId/secret', editor, async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const { signingSecret } = parseOrReject(secretBody, request.body, 'body');
    const changed = await service.setSecret(actorOf(request), workspaceId(request), sourceId, signingSecret);
    if (changed === undefined) throw missing(sourceId);
    return { ...sourceView(changed, links), ...shownSecret(changed, signingSecret) };
  });

  app.post('/sources/preview', async (request) => {
    const { mapping, sample, sourceId } = parseOrReject(previewBody, request.body, 'body');
    return previewMapping(mapping, sample, sourceId ?? NEW_SOURCE_ID);
  });

  app.delete('/sources/:sourceId', editor, async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const removed = await service.remove(actorOf(request), workspaceId(request), sourceId);
    if (removed === undefined) throw missing(sourceId);
    return { deleted: true, id: removed.id };
  });
};
