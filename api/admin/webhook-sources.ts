import type { FastifyPluginAsync } from 'fastify';
import type { WebhookSourceRepository } from '../../db/repositories/webhook-sources';
import { notFound } from '../http/http-error';
import type { PublicLinks } from '../http/public-links';
import { parseOrReject } from '../http/validation';
import { NEW_SOURCE_ID, previewMapping, shownSecret, sourceView } from '../http/webhook-sources';
import { createSourceBody, previewBody, secretBody, updateSourceBody } from '../../contract/webhook-sources';
import { sourceParams } from '../../contract/webhook-sources';
import type { WebhookSourceService } from '../services/settings/webhook-sources';
import { workspaceOf } from './workspace-scope';

const missing = (sourceId: string) => notFound(`webhook source ${sourceId} does not exist in this workspace`);

/**
 * `/admin/workspaces/:workspaceId/sources`: Shopify shops and signed webhooks. The signing secret appears only in the
 * answers that set it (creation, `POST …/:sourceId/secret`).
 */
export const webhookSourceRoutes: FastifyPluginAsync<{ sources: WebhookSourceRepository; service: WebhookSourceService; links: PublicLinks }> = async (app, { sources, service, links }) => {
  app.post('/', async (request, reply) => {
    const { signingSecret, ...input } = parseOrReject(createSourceBody, request.body, 'body');
    const created = await service.create('operator', workspaceOf(request).id, { ...input, signingSecret });
    return reply.code(201).send({ ...sourceView(created, links), ...shownSecret(created, signingSecret) });
  });

  app.get('/', async (request) => ({ sources: (await sources.list(workspaceOf(request).id)).map((source) => sourceView(source, links)) }));

  app.get('/:sourceId', async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const source = await sources.find(workspaceOf(request).id, sourceId);
    if (source === undefined) throw missing(sourceId);
    return sourceView(source, links);
  });

  app.patch('/:sourceId', async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const changes = parseOrReject(updateSourceBody, request.body, 'body');
    const updated = await service.update('operator', workspaceOf(request).id, sourceId, changes);
    if (updated === undefined) throw missing(sourceId);
    return sourceView(updated, links);
  });

  app.post('/:sourceId/secret', async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const { signingSecret } = parseOrReject(secretBody, request.body, 'body');
    const changed = await service.setSecret('operator', workspaceOf(request).id, sourceId, signingSecret);
    if (changed === undefined) throw missing(sourceId);
    return { ...sourceView(changed, links), ...shownSecret(changed, signingSecret) };
  });

  // Before or after a webhook source is saved: what a pasted sample becomes under a mapping.
  app.post('/preview', async (request) => {
    const { mapping, sample, sourceId } = parseOrReject(previewBody, request.body, 'body');
    return previewMapping(mapping, sample, sourceId ?? NEW_SOURCE_ID);
  });

  app.delete('/:sourceId', async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const removed = await service.remove('operator', workspaceOf(request).id, sourceId);
    if (removed === undefined) throw missing(sourceId);
    return { deleted: true, id: removed.id };
  });
};
