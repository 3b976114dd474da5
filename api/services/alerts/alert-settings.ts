import type { Knex } from 'knex';
import { z } from 'zod';
import type { Repositories } from '../../../db/repositories';
import type { AlertSettings } from '../../../db/repositories/alert-settings';
import { webhookTargetProblem, type WebhookTargetRule } from '../../../notify/webhook-target';
import { jsonBody } from '../../../contract/fields';
import { badRequest } from '../../http/http-error';
import type { Actor } from '../settings/actor';

const MAX_RECIPIENTS = 20;
const shareRule = 'must be a whole percent from 1 to 100, or null to turn this alert off';
const silenceRule = 'must be a whole number of minutes from 5 to 10080 (7 days), or null to turn this alert off';
const WEBHOOK_RULE = 'must be an https:// URL (http:// only for this machine), e.g. a Slack incoming webhook, or null to remove it';

const webhookUrl = z.string({ error: WEBHOOK_RULE }).transform((text, context) => {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  const local = url !== undefined && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url === undefined || !(url.protocol === 'https:' || (url.protocol === 'http:' && local)) || url.username !== '' || text.length > 2000) {
    context.addIssue({ code: 'custom', message: WEBHOOK_RULE });
    return z.NEVER;
  }
  return url.href;
});

/** The console's alert settings; `webhookUrl` left out keeps the one saved (the page never receives it back). */
export const alertSettingsBody = jsonBody({
  onReauthorization: z.boolean({ error: 'must be true or false' }),
  failedSharePercent: z.number({ error: shareRule }).int(shareRule).min(1, shareRule).max(100, shareRule).nullable(),
  silenceMinutes: z.number({ error: silenceRule }).int(silenceRule).min(5, silenceRule).max(10_080, silenceRule).nullable(),
  emailEnabled: z.boolean({ error: 'must be true or false' }),
  emailRecipients: z
    .array(z.string({ error: 'must be an email address' }).trim().toLowerCase().max(320, 'must be at most 320 characters').regex(/^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/, 'must be an email address, e.g. jo@shop.example'), {
      error: 'must be a list of email addresses, or [] for the owners',
    })
    .max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} addresses`)
    .transform((emails) => [...new Set(emails)]),
  webhookUrl: webhookUrl.nullable().optional(),
});

export type AlertSettingsChange = z.output<typeof alertSettingsBody>;

/** What the page may see of a webhook URL: its host and last characters (the rest is the credential). */
export function webhookHint(url: string | null): string | null {
  if (url === null) return null;
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}/…${url.slice(-4)}`;
}

/** The change log keeps the settings without the webhook's URL, only whether there is one and its hint. */
const logged = (settings: AlertSettings) => ({ ...settings, webhookUrl: webhookHint(settings.webhookUrl) });

/**
 * `webhookTargets`: ALERT_WEBHOOK_INTERNAL_ADDRESSES, checked on a new webhook URL before it is saved (the worker
 * checks again when it connects).
 */
export function createAlertSettingsService(deps: { db: Knex; repos: Pick<Repositories, 'alertSettings' | 'changeLog'>; webhookTargets: WebhookTargetRule }) {
  return {
    async update(actor: Actor, workspaceId: string, change: AlertSettingsChange): Promise<AlertSettings> {
      const problem = typeof change.webhookUrl === 'string' ? await webhookTargetProblem(change.webhookUrl, deps.webhookTargets) : undefined;
      if (problem !== undefined) throw badRequest(`webhookUrl ${problem}`, [`webhookUrl ${problem}`]);
      return deps.db.transaction(async (trx) => {
        const { since: _since, ...before } = await deps.repos.alertSettings.get(workspaceId, trx);
        const after: AlertSettings = { ...change, webhookUrl: change.webhookUrl === undefined ? before.webhookUrl : change.webhookUrl };
        await deps.repos.alertSettings.put(workspaceId, after, trx);
        await deps.repos.changeLog.record({ workspaceId, actor, action: 'alerts.update', before: logged(before), after: logged(after) }, trx);
        return after;
      });
    },
  };
}

export type AlertSettingsService = ReturnType<typeof createAlertSettingsService>;
