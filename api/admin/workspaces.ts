import type { FastifyPluginAsync } from 'fastify';
import type { WorkspaceRepository } from '../../db/repositories/workspaces';
import { parseOrReject } from '../http/validation';
import { jsonBody, requiredText } from '../http/fields';

const createBody = jsonBody({ name: requiredText(200) });

/** `/admin/workspaces`: create and list. */
export const workspaceCollectionRoutes: FastifyPluginAsync<{ workspaces: WorkspaceRepository }> = async (app, { workspaces }) => {
  app.post('/', async (request, reply) => {
    const { name } = parseOrReject(createBody, request.body, 'body');
    return reply.code(201).send(await workspaces.create(name));
  });

  app.get('/', async () => ({ workspaces: await workspaces.list() }));
};
