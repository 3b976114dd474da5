import { conditionsHolding, type AlertCondition } from '../domain/alerts';
import { alertMessage, alertTimeZone, testAlertMessage, type AlertContext, type AlertText } from '../domain/alert-message';
import { failureWords } from '../notify/failure-words';
import type { AlertSettings } from '../db/repositories/alert-settings';
import type { AlertChannel } from '../db/repositories/alert-incidents';
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

/** How one channel fared with a test alert; `error` in words when it was not sent. */
export interface TestAlertOutcome {
  channel: AlertChannel;
  /** For email: who it went to (the recipients, else the owners). */
  recipients: string[];
  sent: boolean;
  error: string | null;
}

export interface TestAlertInput {
  workspaceId: string;
  /** Who asked, as the message names them (an email address, or "the operator"). */
  requestedBy: string;
}

const HOUR_MS = 3_600_000;
/** Conditions whose mail quotes what TikTok answered the failed conversions. */
const QUOTES_TIKTOK = new Set<AlertCondition>(['failed_deliveries', 'reauthorization']);

const channelsOf = (settings: AlertSettings): AlertChannel[] => [...(settings.emailEnabled ? ['email' as const] : []), ...(settings.webhookUrl !== null ? ['webhook' as const] : [])];

async function contextOf(deps: ActivityDeps, workspaceId: string): Promise<AlertContext> {
  const [workspace, connection] = await Promise.all([deps.repos.workspaces.find(workspaceId), deps.repos.tiktokConnections.summary(workspaceId)]);
  return { workspaceId, workspaceName: workspace?.name ?? workspaceId, publicUrl: deps.publicUrl, advertiserTimeZone: connection?.advertiserTimeZone ?? null };
}

/** Sends a message on one channel: who it went to, and why not in words when it could not be sent. */
async function send(deps: ActivityDeps, workspaceId: string, settings: AlertSettings, channel: AlertChannel, { subject, text }: AlertText): Promise<{ recipients: string[]; error: string | null }> {
  if (channel === 'webhook') {
    if (settings.webhookUrl === null) return { recipients: [], error: 'the webhook was removed before the alert could be sent' };
    try {
      await deps.notify.postWebhook(settings.webhookUrl, `*${subject}*\n${text}`);
      return { recipients: [], error: null };
    } catch (error) {
      deps.log.info({ workspaceId, err: error }, 'alert webhook not sent');
      return { recipients: [], error: failureWords(error, 'the webhook') };
    }
  }
  const to = settings.emailRecipients.length > 0 ? settings.emailRecipients : await deps.repos.alertFigures.ownerEmails(workspaceId);
  if (to.length === 0) return { recipients: [], error: 'the workspace has no owner to mail' };
  try {
    await deps.notify.mailer.send({ to, subject, text });
    return { recipients: to, error: null };
  } catch (error) {
    deps.log.info({ workspaceId, err: error }, 'alert mail not sent');
    return { recipients: to, error: failureWords(error, 'the mail server') };
  }
}

/**
 * Run every minute by the `signalbox-alerts` schedule: for each workspace with a channel, opens an incident when a
 * condition starts and closes it when it clears, then sends each incident's notifications not sent yet (claimed
 * first, so one is sent once even with two evaluations at once). A failed send is recorded and tried next time.
 */
export async function evaluateAlerts(deps: ActivityDeps): Promise<AlertsReport> {
  const report: AlertsReport = { workspaces: 0, opened: 0, closed: 0, sent: 0, notSent: 0, failedWorkspaces: 0 };
  const { alertSettings, alertIncidents, alertFigures, eventCounts, tiktokConnections } = deps.repos;
  for (const settings of await alertSettings.withChannels()) {
    const { workspaceId } = settings;
    report.workspaces += 1;
    try {
      const now = new Date();
      const connection = await tiktokConnections.summary(workspaceId);
      const holding = conditionsHolding(settings, {
        connectionStatus: connection?.status ?? null,
        settled: settings.failedSharePercent === null ? { delivered: 0, failed: 0 } : await alertFigures.settledSince(workspaceId, new Date(now.getTime() - HOUR_MS)),
        lastEventAt: settings.silenceMinutes === null ? null : ((await eventCounts.lastReceivedAt(workspaceId)) ?? null),
        since: settings.since,
        now,
        timeZone: alertTimeZone({ advertiserTimeZone: connection?.advertiserTimeZone ?? null }).timeZone,
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
      const context = await contextOf(deps, workspaceId);
      for (const notification of claimed) {
        const answers = QUOTES_TIKTOK.has(notification.condition) ? await alertFigures.tiktokAnswers(workspaceId, new Date(notification.openedAt.getTime() - HOUR_MS)) : [];
        const { error } = await send(deps, workspaceId, settings, notification.channel, alertMessage(notification, context, answers));
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

/**
 * "Send a test alert": a message that says it is a test, through every channel the workspace's saved alert settings
 * name, exactly as an incident's would go (same mailer, same webhook poster, same checks). Records no incident.
 */
export async function sendTestAlert(deps: ActivityDeps, input: TestAlertInput): Promise<TestAlertOutcome[]> {
  const settings = await deps.repos.alertSettings.get(input.workspaceId);
  const message = testAlertMessage(await contextOf(deps, input.workspaceId), input.requestedBy, new Date());
  const outcomes: TestAlertOutcome[] = [];
  for (const channel of channelsOf(settings)) {
    const { recipients, error } = await send(deps, input.workspaceId, settings, channel, message);
    outcomes.push({ channel, recipients, sent: error === null, error });
  }
  return outcomes;
}
