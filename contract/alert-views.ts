import { z } from 'zod';
import { instant } from './views';

/* Alerts as the console and the settings API answer them. Imports nothing but zod and views.ts, for the console's build. */

const channel = z.enum(['email', 'webhook']);

/** The settings as saved; the webhook's address only as a hint, never whole. */
export const alertSettingsView = z.strictObject({
  onReauthorization: z.boolean(),
  failedSharePercent: z.number().int().nullable().meta({ description: 'null: this alert is off' }),
  silenceMinutes: z.number().int().nullable().meta({ description: 'null: this alert is off' }),
  emailEnabled: z.boolean(),
  emailRecipients: z.array(z.string()).meta({ description: 'Empty: the owners' }),
  webhook: z.string().nullable().meta({ description: 'e.g. https://hooks.slack.example/…ab12; null when there is none' }),
});
export type AlertSettingsView = z.infer<typeof alertSettingsView>;

/** `PUT …/alerts`: the settings as saved. */
export const savedAlertSettingsView = z.strictObject({ settings: alertSettingsView });
export type SavedAlertSettingsView = z.infer<typeof savedAlertSettingsView>;

export const alertIncidentView = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  condition: z.enum(['reauthorization', 'failed_deliveries', 'no_events']),
  detail: z.string(),
  openedAt: instant,
  closedAt: instant.nullable(),
  notifications: z.array(z.strictObject({ channel, attempts: z.number().int(), sentAt: instant.nullable(), lastError: z.string().nullable() })),
});
export type AlertIncidentView = z.infer<typeof alertIncidentView>;

/** `GET …/alerts`: the settings, the owners mail goes to by default, and the latest incidents, newest first. */
export const alertsView = z.strictObject({ settings: alertSettingsView, owners: z.array(z.string()), incidents: z.array(alertIncidentView) });
export type AlertsView = z.infer<typeof alertsView>;

/** How each saved channel fared with a test alert. */
export const testAlertView = z.strictObject({
  outcomes: z.array(
    z.strictObject({
      channel,
      recipients: z.array(z.string()).meta({ description: 'For email: who it went to' }),
      sent: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
});
export type TestAlertView = z.infer<typeof testAlertView>;
