import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { Workspace } from '../../../db/repositories/workspaces';
import { notFound } from '../../http/http-error';
import type { Actor } from '../settings/actor';

/** A person's own workspaces from the console: another one (they own it), and a new name (owners), both logged. */
export function createConsoleWorkspaceService(deps: { db: Knex; repos: Pick<Repositories, 'workspaces' | 'users' | 'changeLog'> }) {
  const { db, repos } = deps;
  return {
    async create(actor: Actor, userId: string, name: string): Promise<Workspace> {
      return db.transaction(async (trx) => {
        const workspace = await repos.workspaces.create(name, trx);
        await repos.users.putMembership(workspace.id, userId, 'owner', trx);
        await repos.changeLog.record({ workspaceId: workspace.id, actor, action: 'workspace.create', target: workspace.id, before: null, after: { name } }, trx);
        return workspace;
      });
    },

    async rename(actor: Actor, current: Workspace, name: string): Promise<Workspace> {
      return db.transaction(async (trx) => {
        const renamed = await repos.workspaces.rename(current.id, name, trx);
        if (renamed === undefined) throw notFound(`workspace ${current.id} does not exist`);
        if (renamed.name !== current.name) {
          await repos.changeLog.record({ workspaceId: current.id, actor, action: 'workspace.rename', target: current.id, before: { name: current.name }, after: { name } }, trx);
        }
        return renamed;
      });
    },
  };
}

export type ConsoleWorkspaceService = ReturnType<typeof createConsoleWorkspaceService>;
