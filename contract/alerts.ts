import { z } from 'zod';
import { errorAnswer } from './errors';
import { jsonBody } from './fields';

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

/** "Send a test alert" (api/services/alerts/test-alert.ts): refused without a channel, or when no worker sends it. */
export const testAlertRefusals = {
  409: errorAnswer('No alert channel is saved yet (no_alert_channel): tick Email or Webhook and save the alerts first'),
  503: errorAnswer('No worker sent the test alert in time (worker_unavailable), or Temporal or PostgreSQL is unavailable'),
};
