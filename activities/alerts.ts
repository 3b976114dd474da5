import { alertMessage, conditionsHolding, type AlertCondition } from '../domain/alerts';
import type { AlertSettings } from '../db/repositories/alert-settings';
import type { AlertChannel, ClaimedNotification } from '../db/repositories/alert-incidents';
import type { ActivityDeps } from './deps';

export interface AlertsReport {
  workspaces: number;
  opened: number;
  closed: number;
  sent: number;
  /** Notifications whose mail server or webhook failed: tried again at the next evaluation. */
  notSent: number;
  /** Workspaces whose evaluation failed (PostgreSQL); the others went on. */
  failedWorkspaces: number;
}

const HOUR_MS = 3_600_000;

const channelsOf = (settings: AlertSettings): AlertChannel[] => [...(settings.emailEnabled ? ['email' as const] : []), ...(settings.webhookUrl !== null ? ['webhook' as const] : [])];

/** Sends one claimed notification; the error's words when it could not be sent. */
async function send(deps: ActivityDeps, settings: AlertSettings, workspaceName: string, notification: ClaimedNotification): Promise<string | null> {
  const { subject, text } = alertMessage(notification, workspaceName);
  try {
    if (notification.channel === 'webhook') {
      if (settings.webhookUrl === null) return 'the webhook was removed before the alert could be sent';
      await deps.notify.postWebhook(settings.webhookUrl, `*${subject}*\n${text}`);
    } else {
      const to = settings.emailRecipients.length > 0 ? settings.emailRecipients : await deps.repos.alertFigures.ownerEmails(notification.workspaceId);
      if (to.length === 0) return 'the workspace has no owner to mail';
      await deps.notify.mailer.send({ to, subject, text });
    }
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Run every minute by the `signalbox-alerts` schedule: for each workspace with a channel, opens an incident when a
 * condition starts and closes it when it clears, then sends each incident's notifications not sent yet (claimed
 * first, so one is sent once even with two evaluations at once). A failed send is recorded and tried next time.
 */
export async function evaluateAlerts(deps: ActivityDeps): Promise<AlertsReport> {
  const report: AlertsReport = { workspaces: 0, opened: 0, closed: 0, sent: 0, notSent: 0, failedWorkspaces: 0 };
  const { alertSettings, alertIncidents, alertFigures, eventCounts, tiktokConnections, workspaces } = deps.repos;
  for (const settings of await alertSettings.withChannels()) {
    const { workspaceId } = settings;
    report.workspaces += 1;
    try {
      const now = new Date();
      const holding = conditionsHolding(settings, {
        connectionStatus: (await tiktokConnections.summary(workspaceId))?.status ?? null,
        settled: settings.failedSharePercent === null ? { delivered: 0, failed: 0 } : await alertFigures.settledSince(workspaceId, new Date(now.getTime() - HOUR_MS)),
        lastEventAt: settings.silenceMinutes === null ? null : ((await eventCounts.lastReceivedAt(workspaceId)) ?? null),
        since: settings.since,
        now,
      });
      const open = new Set<AlertCondition>(await alertIncidents.openConditions(workspaceId));
      for (const [condition, detail] of holding) {
        if (!open.has(condition) && (await alertIncidents.open(workspaceId, condition, detail, channelsOf(settings)))) report.opened += 1;
      }
      for (const condition of open) {
        if (!holding.has(condition) && (await alertIncidents.close(workspaceId, condition))) report.closed += 1;
      }
      const claimed = await alertIncidents.claimUnsent(workspaceId);
      if (claimed.length === 0) continue;
      const workspaceName = (await workspaces.find(workspaceId))?.name ?? workspaceId;
      for (const notification of claimed) {
        const error = await send(deps, settings, workspaceName, notification);
        await alertIncidents.recordOutcome(notification.incidentId, notification.channel, error);
        if (error === null) report.sent += 1;
        else report.notSent += 1;
      }
    } catch (error) {
      report.failedWorkspaces += 1;
      deps.log.info({ workspaceId, err: error }, 'alert evaluation failed for this workspace; the next run tries again');
    }
  }
  return report;
}
