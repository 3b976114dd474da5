import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import type { TikTokConnectionService } from '../../services/tiktok-connection';
import { type WorkspaceSettingsService } from '../../services/settings/workspace-settings';
import { createWorkspaceBody, settingsChangesBody } from '../../../contract/workspaces';
import type { ConsoleWorkspaceService } from '../../services/accounts/workspaces';
import { parseOrReject } from '../../http/validation';
import { actorNames } from '../actor-names';
import { actorOf, currentWorkspace, needs } from '../auth';
import { changeSummary, fieldChanges } from '../change-log-text';
import { changeLogQuery } from '../../../contract/console/workspace-routes';

export interface WorkspaceRoutesOptions {
  repos: Repositories;
  workspaceSettings: WorkspaceSettingsService;
  connections: TikTokConnectionService;
  workspaces: ConsoleWorkspaceService;
}

/** The workspace itself: its settings and role (every page's banner and menu), settings changes, the change log. */
export const workspaceRoutes: FastifyPluginAsync<WorkspaceRoutesOptions> = async (app, { repos, workspaceSettings, workspaces }) => {
  app.get('/', async (request) => {
    const workspace = currentWorkspace(request);
    const connection = await repos.tiktokConnections.summary(workspace.id);
    return {
      workspace,
      role: request.consoleWorkspace?.role,
      tiktok:
        connection === undefined
          ? null
          : {
              status: connection.status,
              advertiserId: connection.advertiserId,
              advertiserName: connection.advertiserName,
              pixelCode: connection.pixelCode,
              pixelName: connection.pixelName,
              timeZone: connection.advertiserTimeZone,
              currency: connection.advertiserCurrency,
            },
    };
  });

  /** A new name (owners); the change log records it. */
  app.patch('/', { preHandler: needs('owner') }, async (request) => {
    const { name } = parseOrReject(createWorkspaceBody, request.body, 'body');
    return { workspace: await workspaces.rename(actorOf(request), currentWorkspace(request), name) };
  });

  app.patch('/settings', { preHandler: needs('editor') }, async (request) => {
    const changes = parseOrReject(settingsChangesBody, request.body, 'body');
    return workspaceSettings.update(actorOf(request), currentWorkspace(request), changes);
  });

  app.get('/change-log', async (request) => {
    const query = parseOrReject(changeLogQuery, request.query, 'query');
    const workspaceId = currentWorkspace(request).id;
    const [rows, connection] = await Promise.all([repos.changeLog.list(workspaceId, { limit: query.limit, beforeId: query.beforeId }), repos.tiktokConnections.summary(workspaceId)]);
    const nameOf = await actorNames(repos.users, rows.map((row) => row.actor));
    // Entries logged before names were are named by the connection's current names.
    const names = {
      advertiser: (id: string) => connection?.accessibleAdvertisers?.find((a) => a.advertiserId === id)?.advertiserName || undefined,
      pixel: (code: string) => (code === connection?.pixelCode ? (connection.pixelName ?? undefined) : undefined),
    };
    return {
      entries: rows.map((row) => ({
        id: String(row.id),
        at: row.at,
        actor: row.actor,
        actorName: nameOf(row.actor),
        action: row.action,
        target: row.target,
        summary: changeSummary(row, names),
        changes: fieldChanges(row),
      })),
      nextBeforeId: rows.length === query.limit ? String(rows.at(-1)?.id) : null,
    };
  });
};
