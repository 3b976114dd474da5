import type { FastifyPluginAsync } from 'fastify';
import type { WorkspaceSettingsService } from '../services/settings/workspace-settings';
import { settingsChangesBody } from '../../contract/workspaces';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';

/**
 * `/admin/workspaces/:workspaceId` and its settings (attribution window, test mode, default phone region, the
 * origins browser keys are accepted from, whether the tracking script waits for consent, the exchange rates reports
 * convert delivered values with, and how long raw events are kept).
 */
export const workspaceSettingsRoutes: FastifyPluginAsync<{ workspaceSettings: WorkspaceSettingsService }> = async (app, { workspaceSettings }) => {
  app.get('/', async (request) => workspaceOf(request));

  app.patch('/settings', async (request) => {
    const changes = parseOrReject(settingsChangesBody, request.body, 'body');
    return workspaceSettings.update('operator', workspaceOf(request), changes);
  });
};
