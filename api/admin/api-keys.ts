import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ApiKeyRepository, CreatedApiKey } from '../../db/repositories/api-keys';
import type { ApiKeyService } from '../services/settings/api-keys';
import type { Workspace } from '../../db/repositories/workspaces';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { jsonBody, requiredText } from '../http/fields';
import { workspaceOf } from './workspace-scope';

export const createKeyBody = jsonBody({
  name: requiredText(100),
  kind: z.enum(['secret', 'browser', 'app'], { error: 'must be secret (servers, dk_), browser (web pages, pk_) or app (mobile apps, ak_)' }).default('secret'),
});
export const keyParams = z.object({ keyId: z.string().min(1).max(100, 'must be at most 100 characters') });

const SHOWN_ONCE = 'Store this key now: it is shown only once and cannot be recovered.';

export function creationNotice(key: CreatedApiKey, workspace: Workspace): string {
  if (key.kind === 'secret') return SHOWN_ONCE;
  const origins =
    workspace.allowedOrigins.length === 0
      ? 'This workspace has no allowedOrigins yet, so every page is refused until you set them in the workspace settings.'
      : `Pages on ${workspace.allowedOrigins.join(', ')} may use it.`;
  return `${SHOWN_ONCE} Browser keys are public: they go into your pages' script tag and can only send events, only from the workspace's allowedOrigins. ${origins}`;
}

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
