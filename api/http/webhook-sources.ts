import type { MappingPreviewView } from '../../contract/views';
import type { WebhookSource } from '../../db/repositories/webhook-sources';
import { ruleForSource } from '../../domain/rule-advice';
import { mapWebhookBody, type WebhookMapping } from '../../domain/webhooks/mapping';
import { parseWebhookJson } from '../../domain/webhooks/webhook-json';
import { checkMessage, formatIssue } from '../../sdk/src/rules/index.js';
import type { PublicLinks } from './public-links';

/* What the settings API and the console share about webhook sources: the listed view, the secret's notice, the mapping's preview (their bodies: contract/webhook-sources.ts). */

/** The header generic webhooks are signed in unless the source names another (as GitHub's, Stripe's or a platform's own). */
export const DEFAULT_SIGNATURE_HEADER = 'X-Signature';

/** What a preview names a source not saved yet (the source's ID appears only in anonymous IDs it makes up). */
export const NEW_SOURCE_ID = 'src_new';


/** The webhook source a request's path (`/v1/webhooks/<id>`, as the refusal log records it) was posted to, if any. */
export function webhookSourceIdOf(path: string): string | undefined {
  return /^\/v1\/webhooks\/([^/]+)$/.exec(path)?.[1];
}

/** A source as listed, with the URL its platform posts to (from `PUBLIC_URL`, never from the request). */
export function sourceView(source: WebhookSource, links: PublicLinks) {
  // Named field by field: a source the repository answered with its secret (created, given a new one) must not show it.
  const listed: WebhookSource = {
    id: source.id,
    workspaceId: source.workspaceId,
    type: source.type,
    name: source.name,
    signatureHeader: source.signatureHeader,
    mapping: source.mapping,
    createdAt: source.createdAt,
    secretSetAt: source.secretSetAt,
    secretMade: source.secretMade,
    lastDeliveryAt: source.lastDeliveryAt,
    lastRefusal: source.lastRefusal,
  };
  return {
    ...listed,
    signatureHeader: source.type === 'webhook' ? (source.signatureHeader ?? DEFAULT_SIGNATURE_HEADER) : 'X-Shopify-Hmac-Sha256',
    webhookUrl: links.webhook(source.id),
    neededRule: ruleForSource(source),
  };
}

const SHOWN_ONCE = 'Store the signing secret now: it is shown only once. Rotate it to get a new one.';

/** The topics to subscribe in Shopify, each mapped by domain/shopify/topics.ts. */
export const SHOPIFY_TOPICS = ['orders/create', 'orders/paid', 'checkouts/create', 'carts/update', 'refunds/create', 'customers/create', 'customers/update'] as const;

/** What to do next with a new source, or one whose secret was just set. */
function secretNotice(source: WebhookSource, given: boolean): string {
  if (source.type === 'shopify') {
    const topics = `In Shopify (Settings → Notifications → Webhooks) send these events to the webhook URL, format JSON: ${SHOPIFY_TOPICS.join(', ')}.`;
    return given
      ? `Signalbox checks every delivery with the key you gave, Shopify's. ${topics}`
      : `${topics} Shopify signs them with its own key, shown there ("Your webhooks will be signed with …"): give this source that key, as its signing secret. Until then Shopify's deliveries are refused.`;
  }
  return given ? 'Signalbox checks every delivery with the secret you gave.' : `${SHOWN_ONCE} The sender signs each body with it (HMAC-SHA256, hex or base64) in the ${source.signatureHeader ?? DEFAULT_SIGNATURE_HEADER} header.`;
}

/**
 * What an answer that set a secret adds: the secret when Signalbox made it for a generic webhook (shown this once; a
 * given one is not echoed, and one made for a Shopify source is of no use, since Shopify signs with its own key), and
 * what to do next.
 */
export function shownSecret(source: WebhookSource & { signingSecret: string }, given: string | undefined): { signingSecret?: string; notice: string } {
  if (given !== undefined || source.type === 'shopify') return { notice: secretNotice(source, given !== undefined) };
  return { signingSecret: source.signingSecret, notice: secretNotice(source, false) };
}

/**
 * What a pasted sample body becomes under a mapping, checked by the ingest API's message rules: the message as it
 * would be stored, or every problem. The same code maps real deliveries (api/ingest/webhook-routes.ts).
 */
export function previewMapping(mapping: WebhookMapping, sample: string, sourceId: string): MappingPreviewView {
  const parsed = parseWebhookJson(sample);
  if (!parsed.ok) return { ok: false, problems: [`sample ${parsed.problem.replace(/^body /, '')}`] };
  const mapped = mapWebhookBody(parsed.body, mapping, { id: sourceId }, sample);
  if (!mapped.ok) return { ok: false, problems: mapped.problems };
  const check = checkMessage(mapped.message);
  if (!check.ok) return { ok: false, problems: check.issues.map((issue) => formatIssue(issue, '', 'message')) };
  return { ok: true, message: JSON.parse(check.json) as Record<string, unknown>, unmatched: mapped.unmatched };
}
