import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import type { AlertSettings } from '../../../db/repositories/alert-settings';
import { webhookHint, type AlertSettingsService } from '../../services/alerts/alert-settings';
import { alertSettingsBody } from '../../../contract/alerts';
import type { TestAlertService } from '../../services/alerts/test-alert';
import { parseOrReject } from '../../http/validation';
import { actorOf, currentWorkspace, needs, signedInUser } from '../auth';

/** The latest incidents the page lists. */
const INCIDENTS_SHOWN = 50;

const view = ({ onReauthorization, failedSharePercent, silenceMinutes, emailEnabled, emailRecipients, webhookUrl }: AlertSettings) => ({
  onReauthorization,
  failedSharePercent,
  silenceMinutes,
  emailEnabled,
  emailRecipients,
  webhook: webhookHint(webhookUrl),
});

/** `/alerts`: everyone sees the alert settings and incidents; editors and owners change the settings and send a test alert. */
export const alertRoutes: FastifyPluginAsync<{ repos: Repositories; alerts: AlertSettingsService; testAlerts: TestAlertService }> = async (app, { repos, alerts, testAlerts }) => {
  app.get('/alerts', async (request) => {
    const workspaceId = currentWorkspace(request).id;
    const [settings, owners, incidents] = await Promise.all([repos.alertSettings.get(workspaceId), repos.alertFigures.ownerEmails(workspaceId), repos.alertIncidents.list(workspaceId, INCIDENTS_SHOWN)]);
    return { settings: view(settings), owners, incidents };
  });

  app.put('/alerts', { preHandler: needs('editor') }, async (request) => {
    const change = parseOrReject(alertSettingsBody, request.body, 'body');
    return { settings: view(await alerts.update(actorOf(request), currentWorkspace(request).id, change)) };
  });

  app.post('/alerts/test', { preHandler: needs('editor') }, async (request) => testAlerts.send(actorOf(request), currentWorkspace(request).id, signedInUser(request).email));
};
