import type { Knex } from 'knex';
import type { SecretBox } from '../secret-box';

export interface AlertSettings {
  onReauthorization: boolean;
  /** Alert when at least this percent of the last hour's settled deliveries failed; null: off. */
  failedSharePercent: number | null;
  /** Alert when no event arrived for this many minutes; null: off. */
  silenceMinutes: number | null;
  emailEnabled: boolean;
  /** Empty: the workspace's owners. */
  emailRecipients: string[];
  webhookUrl: string | null;
}

/** Until a workspace saves its own: re-authorization alerts on, no channel (nothing is sent). */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = { onReauthorization: true, failedSharePercent: null, silenceMinutes: null, emailEnabled: false, emailRecipients: [], webhookUrl: null };

interface AlertSettingsRow {
  workspace_id: string;
  on_reauthorization: boolean;
  failed_share_percent: number | null;
  silence_minutes: number | null;
  email_enabled: boolean;
  email_recipients: string[];
  webhook_url_ciphertext: string | null;
  created_at: Date;
  updated_at: Date;
}

const WEBHOOK_COLUMN = 'alert_settings.webhook_url_ciphertext';

/** The webhook URL is sealed with SECRET_KEY: a Slack webhook URL lets whoever holds it post to the channel. */
export function createAlertSettingsRepository(db: Knex, secrets: SecretBox) {
  const toSettings = (row: AlertSettingsRow): AlertSettings => ({
    onReauthorization: row.on_reauthorization,
    failedSharePercent: row.failed_share_percent,
    silenceMinutes: row.silence_minutes,
    emailEnabled: row.email_enabled,
    emailRecipients: row.email_recipients,
    webhookUrl: row.webhook_url_ciphertext === null ? null : secrets.open(WEBHOOK_COLUMN, row.webhook_url_ciphertext),
  });

  return {
    async get(workspaceId: string, executor: Knex = db): Promise<AlertSettings & { since: Date | null }> {
      const row = (await executor('alert_settings').where({ workspace_id: workspaceId }).first()) as AlertSettingsRow | undefined;
      return row === undefined ? { ...DEFAULT_ALERT_SETTINGS, since: null } : { ...toSettings(row), since: row.created_at };
    },

    async put(workspaceId: string, settings: AlertSettings, executor: Knex = db): Promise<void> {
      const values = {
        workspace_id: workspaceId,
        on_reauthorization: settings.onReauthorization,
        failed_share_percent: settings.failedSharePercent,
        silence_minutes: settings.silenceMinutes,
        email_enabled: settings.emailEnabled,
        email_recipients: settings.emailRecipients,
        webhook_url_ciphertext: settings.webhookUrl === null ? null : secrets.seal(WEBHOOK_COLUMN, settings.webhookUrl),
      };
      await executor('alert_settings').insert(values).onConflict('workspace_id').merge({ ...values, updated_at: executor.fn.now() });
    },

    /** Workspaces with a channel to alert on, with their settings and when they were first saved. */
    async withChannels(executor: Knex = db): Promise<(AlertSettings & { workspaceId: string; since: Date })[]> {
      const rows = (await executor('alert_settings')
        .where({ email_enabled: true })
        .orWhereNotNull('webhook_url_ciphertext')
        .orderBy('workspace_id')) as AlertSettingsRow[];
      return rows.map((row) => ({ ...toSettings(row), workspaceId: row.workspace_id, since: row.created_at }));
    },
  };
}

export type AlertSettingsRepository = ReturnType<typeof createAlertSettingsRepository>;
