/** The wait for a webhook's answer ends: an evaluation never hangs on a slow receiver. */
const TIMEOUT_MS = 10_000;

/** Posts `{"text": …}`, the body Slack's incoming webhooks (and Mattermost's, Discord's `/slack`) take; non-2xx throws. */
export async function postWebhook(url: string, text: string, timeoutMs = TIMEOUT_MS): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'manual',
  });
  await response.body?.cancel();
  if (response.status < 200 || response.status > 299) throw new Error(`the webhook answered HTTP ${response.status}`);
}

export type WebhookPoster = typeof postWebhook;
