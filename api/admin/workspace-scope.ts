import type { FastifyInstance } from 'fastify';
import { workspaceParams } from '../../contract/workspaces';
import type { Workspace, WorkspaceRepository } from '../../db/repositories/workspaces';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';

declare module 'fastify' {
  interface FastifyRequest {
    adminWorkspace: Workspace | null;
  }
}

/** Loads `:workspaceId` for every route of this scope, answering 404 when the workspace does not exist. */
export function loadWorkspaceFromPath(app: FastifyInstance, workspaces: Pick<WorkspaceRepository, 'find'>): void {
  app.decorateRequest('adminWorkspace', null);
  app.addHook('onRequest', async (request) => {
    const { workspaceId } = parseOrReject(workspaceParams, request.params, 'path');
    const workspace = await workspaces.find(workspaceId);
    if (workspace === undefined) throw notFound(`workspace ${workspaceId} does not exist`);
    request.adminWorkspace = workspace;
  });
}

export function workspaceOf(request: { adminWorkspace: Workspace | null }): Workspace {
  if (request.adminWorkspace === null) throw new Error('route registered outside the workspace scope');
  return request.adminWorkspace;
}
