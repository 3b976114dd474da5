import type { FastifyPluginAsync } from 'fastify';
import type { ApiKeyRepository } from '../../db/repositories/api-keys';
import type { ApiKeyService } from '../services/settings/api-keys';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { creationNotice } from '../http/api-keys';
import { createKeyBody, keyParams } from '../../contract/api-keys';
import { workspaceOf } from './workspace-scope';

/** `/admin/workspaces/:workspaceId/api-keys`: the full key appears only in the creation response. */
export const apiKeyRoutes: FastifyPluginAsync<{ apiKeys: ApiKeyRepository; keys: ApiKeyService }> = async (app, { apiKeys, keys }) => {
  app.post('/', async (request, reply) => {
    const { name, kind } = parseOrReject(createKeyBody, request.body, 'body');
    const workspace = workspaceOf(request);
    const created = await keys.create('operator', workspace.id, name, kind);
    return reply.code(201).send({ ...created, notice: creationNotice(created, workspace) });
  });

  app.get('/', async (request) => ({ apiKeys: await apiKeys.list(workspaceOf(request).id) }));

  app.delete('/:keyId', async (request) => {
    const { keyId } = parseOrReject(keyParams, request.params, 'path');
    const revoked = await keys.revoke('operator', workspaceOf(request).id, keyId);
    if (revoked === undefined) throw notFound(`API key ${keyId} does not exist in this workspace`);
    return revoked;
  });
};
