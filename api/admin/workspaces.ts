import type { FastifyPluginAsync } from 'fastify';
import type { WorkspaceRepository } from '../../db/repositories/workspaces';
import { parseOrReject } from '../http/validation';
import { createWorkspaceBody } from '../../contract/workspaces';

/** `/admin/workspaces`: create and list. */
export const workspaceCollectionRoutes: FastifyPluginAsync<{ workspaces: WorkspaceRepository }> = async (app, { workspaces }) => {
  app.post('/', async (request, reply) => {
    const { name } = parseOrReject(createWorkspaceBody, request.body, 'body');
    return reply.code(201).send(await workspaces.create(name));
  });

  app.get('/', async () => ({ workspaces: await workspaces.list() }));
};
