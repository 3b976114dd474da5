import type { Knex } from 'knex';
import type { z } from 'zod';
import type { alertSettingsBody } from '../../../contract/alerts';
import type { Repositories } from '../../../db/repositories';
import type { AlertSettings } from '../../../db/repositories/alert-settings';
import { webhookTargetProblem, type WebhookTargetRule } from '../../../notify/webhook-target';
import { badRequest } from '../../http/http-error';
import type { Actor } from '../settings/actor';

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
