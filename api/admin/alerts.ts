import type { FastifyPluginAsync } from 'fastify';
import type { TestAlertService } from '../services/alerts/test-alert';
import { workspaceOf } from './workspace-scope';

/**
 * `POST /admin/workspaces/:workspaceId/alerts/test`: sends a test alert through the workspace's saved channels, on a
 * worker, and answers how each fared (`outcomes`: channel, recipients, sent, the error in words).
 */
export const alertRoutes: FastifyPluginAsync<{ testAlerts: TestAlertService }> = async (app, { testAlerts }) => {
  app.post('/test', async (request) => testAlerts.send('operator', workspaceOf(request).id, 'the operator'));
};
