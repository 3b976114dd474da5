import { z } from 'zod';
import type { WebhookSource } from '../../db/repositories/webhook-sources';
import { MAPPING_FIELDS, mapWebhookBody, mappingFieldProblem, type WebhookMapping } from '../../domain/webhooks/mapping';
import { parseWebhookJson } from '../../domain/webhooks/webhook-json';
import { checkMessage, formatIssue } from '../../sdk/src/rules/index.js';
import { jsonBody, requiredText } from './fields';
import type { PublicLinks } from './public-links';

/* What the settings API and the console share about webhook sources: bodies, parameters and the listed view. */

/** The header generic webhooks are signed in unless the source names another (as GitHub's, Stripe's or a platform's own). */
export const DEFAULT_SIGNATURE_HEADER = 'X-Signature';

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

export const signingSecretField = z
  .string({ error: 'must be a string: the signing secret (Shopify shows it under Settings → Notifications → Webhooks), or left out to have one made' })
  .trim()
  .min(16, 'must be at least 16 characters: a short secret can be guessed')
  .max(500, 'must be at most 500 characters');

const signatureHeaderField = z.string({ error: 'must be a string: an HTTP header name' }).trim().regex(HEADER_NAME, 'must be an HTTP header name, e.g. X-Signature or Stripe-Signature');

const expression = (field: (typeof MAPPING_FIELDS)[number]) =>
  z
    .string({ error: 'must be a string: a path into the body such as data.object.id' })
    .trim()
    .superRefine((value, context) => {
      const problem = mappingFieldProblem(field, value);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    });

export const mappingSchema = z.strictObject(
  {
    event: expression('event'),
    messageId: expression('messageId').optional(),
    userId: expression('userId').optional(),
    anonymousId: expression('anonymousId').optional(),
    email: expression('email').optional(),
    phone: expression('phone').optional(),
    value: expression('value').optional(),
    valueInCents: z.boolean({ error: 'must be true or false' }).optional(),
    currency: expression('currency').optional(),
    orderId: expression('orderId').optional(),
    products: expression('products').optional(),
    timestamp: expression('timestamp').optional(),
  },
  { error: 'must be an object of paths into the body, at least { "event": "…" }' },
) satisfies z.ZodType<WebhookMapping>;

/** Empty text fields (a cleared input) are left out rather than refused. */
const withoutEmpty = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== '' && inner !== null)) : value;

const mappingField = z.preprocess(withoutEmpty, mappingSchema);

export const createSourceBody = jsonBody({
  type: z.enum(['shopify', 'webhook'], { error: 'must be shopify (a Shopify shop) or webhook (any platform that posts signed JSON)' }),
  name: requiredText(100),
  signingSecret: signingSecretField.optional(),
  signatureHeader: signatureHeaderField.optional(),
  mapping: mappingField.optional(),
}).superRefine((body, context) => {
  if (body.type === 'webhook' && body.mapping === undefined) context.addIssue({ code: 'custom', path: ['mapping'], message: 'is required for a webhook source: at least { "event": "<path or \\"Fixed name\\">" }' });
  if (body.type === 'shopify' && (body.mapping !== undefined || body.signatureHeader !== undefined)) {
    context.addIssue({ code: 'custom', path: [body.mapping !== undefined ? 'mapping' : 'signatureHeader'], message: "is for webhook sources only: a Shopify source reads Shopify's topics and header" });
  }
});

export const updateSourceBody = jsonBody({ name: requiredText(100).optional(), signatureHeader: signatureHeaderField.optional(), mapping: mappingField.optional() });

export const secretBody = z.preprocess((value) => value ?? {}, jsonBody({ signingSecret: signingSecretField.optional() }));

/** What a preview names a source not saved yet (the source's ID appears only in anonymous IDs it makes up). */
export const NEW_SOURCE_ID = 'src_new';

export const previewBody = jsonBody({
  sourceId: z.string({ error: 'must be a string: the source whose mapping this is' }).max(100, 'must be at most 100 characters').optional(),
  mapping: mappingField,
  sample: z.string({ error: 'must be a string: the JSON body of one webhook, pasted' }).max(256 * 1024, 'must be at most 256 KB'),
});

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
    lastDeliveryAt: source.lastDeliveryAt,
    lastRefusal: source.lastRefusal,
  };
  return { ...listed, signatureHeader: source.type === 'webhook' ? (source.signatureHeader ?? DEFAULT_SIGNATURE_HEADER) : 'X-Shopify-Hmac-Sha256', webhookUrl: links.webhook(source.id) };
}

const SHOWN_ONCE = 'Store the signing secret now: it is shown only once. Rotate it to get a new one.';

/** The topics to subscribe in Shopify, each mapped by domain/shopify/topics.ts. */
export const SHOPIFY_TOPICS = ['orders/create', 'orders/paid', 'checkouts/create', 'carts/update', 'refunds/create', 'customers/create', 'customers/update'] as const;

/** What to do next with a new source, or one whose secret was just set. */
function secretNotice(source: WebhookSource, given: boolean): string {
  if (source.type === 'shopify') {
    return given
      ? `Signalbox checks every delivery with the key you gave, Shopify's. In Shopify (Settings → Notifications → Webhooks) send these events to the webhook URL, format JSON: ${SHOPIFY_TOPICS.join(', ')}.`
      : `${SHOWN_ONCE} Webhooks made in Shopify's admin are signed with the key Shopify shows there: set it as this source's secret (signalbox sources secret … --secret <Shopify's key>).`;
  }
  return given ? 'Signalbox checks every delivery with the secret you gave.' : `${SHOWN_ONCE} The sender signs each body with it (HMAC-SHA256, hex or base64) in the ${source.signatureHeader ?? DEFAULT_SIGNATURE_HEADER} header.`;
}

/** What an answer that set a secret adds: the secret when Signalbox made it (shown this once; a given one is not echoed), and what to do next. */
export function shownSecret(source: WebhookSource & { signingSecret: string }, given: string | undefined): { signingSecret?: string; notice: string } {
  return given === undefined ? { signingSecret: source.signingSecret, notice: secretNotice(source, false) } : { notice: secretNotice(source, true) };
}

export type MappingPreview = { ok: true; message: Record<string, unknown> } | { ok: false; problems: string[] };

/**
 * What a pasted sample body becomes under a mapping, checked by the ingest API's message rules: the message as it
 * would be stored, or every problem. The same code maps real deliveries (api/ingest/webhook-routes.ts).
 */
export function previewMapping(mapping: WebhookMapping, sample: string, sourceId: string): MappingPreview {
  const parsed = parseWebhookJson(sample);
  if (!parsed.ok) return { ok: false, problems: [`sample ${parsed.problem.replace(/^body /, '')}`] };
  const mapped = mapWebhookBody(parsed.body, mapping, { id: sourceId }, sample);
  if (!mapped.ok) return { ok: false, problems: mapped.problems };
  const check = checkMessage(mapped.message);
  if (!check.ok) return { ok: false, problems: check.issues.map((issue) => formatIssue(issue, '', 'message')) };
  return { ok: true, message: JSON.parse(check.json) as Record<string, unknown> };
}
