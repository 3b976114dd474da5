import { z } from 'zod';
import { MESSAGE_TYPES } from '../sdk/src/rules/index.js';
import { errorAnswer, errors } from './errors';
import { batchBody, singleMessageBody } from './messages';
import { route, type RouteContract } from './route';
import { PUBLIC, WRITE_KEY } from './security';
import { browserPixelMode } from './views';
import { sourceParams } from './webhook-sources';

/** What `/v1` answers once the messages are stored (committed before the answer). */
export const acceptedBody = z
  .strictObject({
    success: z.literal(true),
    duplicates: z
      .strictObject({
        messages: z.number().int().meta({ description: 'Messages stored before (same messageId): not stored again' }),
        conversions: z.number().int().meta({ description: 'Conversions already made from those messages: not made again' }),
      })
      .optional()
      .meta({ description: 'Only when some of the request was stored before' }),
  })
  .meta({ id: 'Accepted' });

export type AcceptedBody = z.infer<typeof acceptedBody>;

const ingestErrors = {
  ...errors(400, 401, 403, 413, 429, 503),
  401: errorAnswer('The API key is missing, malformed, unknown or revoked', { error: 'unauthorized', message: 'API key is unknown or revoked' }),
  403: errorAnswer(
    'The key may not be used this way: a browser key from an origin the workspace does not allow, a secret key from a page or in a URL, X-Workspace-Id of another workspace',
    { error: 'forbidden', message: "Origin https://elsewhere.example is not one of this workspace's allowedOrigins: add it in the workspace settings" },
  ),
};

const stored = { 200: { description: 'Stored: every message was checked and committed before this answer', schema: acceptedBody, example: { success: true } } };

const batchRoute = (path: string, summary: string) =>
  route({
    method: 'POST',
    path,
    summary,
    description:
      'Segment-compatible. Every message is checked before any is stored: a 400 lists each problem of each message and stores nothing. Bodies are JSON whatever the Content-Type (gzip and deflate accepted).',
    tag: 'Ingest',
    security: WRITE_KEY,
    body: batchBody,
    bodyExample: { batch: [{ type: 'track', event: 'Order Completed', userId: 'user-1', messageId: 'm-1', timestamp: '2026-01-31T12:00:00Z', properties: { value: 25, currency: 'USD', order_id: 'A-1' } }] },
    answers: { ...stored, ...ingestErrors },
  });

const singleRoute = (path: string, type: string) =>
  route({
    method: 'POST',
    path,
    summary: `One ${type} message`,
    description: `Segment-compatible. The body is one message; its \`type\`, when given, must be \`${type}\`.`,
    tag: 'Ingest',
    security: WRITE_KEY,
    body: singleMessageBody,
    answers: { ...stored, ...ingestErrors },
  });

/** Segment's browser library posts one message to `/v1/<first letter of its type>`, its mobile libraries batch to `/v1/b`. */
const SEGMENT_SHORT_PATHS = { t: 'track', i: 'identify', p: 'page', s: 'screen', g: 'group', a: 'alias' } as const;

export const ingestBatch = batchRoute('/v1/batch', 'A batch of messages');

export const browserConfigParams = z.object({ key: z.string().meta({ description: 'A browser key (pk_...)' }) });

/** A conversion rule as the tracking tag applies it to TikTok's pixel, with the server's value and event ID rules. */
const pixelRule = z.strictObject({
  sourceEvent: z.string(),
  tiktokEvent: z.string(),
  alsoSendAs: z.array(z.string()).meta({ description: 'Each also tracked, with event_id `<event_id>:<name>`' }),
  valueSource: z.enum(['order_total', 'fixed', 'none']),
  fixedValue: z.number().nullable(),
  currency: z.string().nullable(),
});

/** What the tracking script reads before it stores or sends anything. */
export const browserConfigView = z.strictObject({
  consentRequired: z.boolean(),
  attributionDays: z.number().int(),
  pixel: z.strictObject({
    mode: browserPixelMode.meta({ description: '`off`: the tag never touches TikTok\'s pixel; `load`: it loads the pixel; `page`: it uses the page\'s own `ttq`' }),
    code: z.string().nullable().meta({ description: 'The TikTok pixel code the Events API sends under (event_source_id); null until one is chosen' }),
    libraryUrl: z.string().meta({ description: 'TikTok\'s pixel library, loaded in `load` mode with `?sdkid=<code>&lib=ttq`' }),
    limitedDataUse: z.boolean(),
  }),
  rules: z.array(pixelRule).meta({ description: 'Empty when the pixel is off; else the conversion rules the pixel may see (not server-only)' }),
});
export type BrowserConfigView = z.infer<typeof browserConfigView>;

export const webhookDeliveryBody = z
  .strictObject({
    success: z.literal(true),
    stored: z.literal(0).optional(),
    note: z.string().optional(),
    duplicates: acceptedBody.shape.duplicates,
  })
  .meta({
    description:
      'As `/v1/batch` answers; a Shopify cart with no line item answers `stored: 0` with a note, and so does a signed Shopify delivery that cannot be stored (an empty or unreadable body, a body that is not the resource of its topic), which the note explains and the event debugger lists as refused',
  });
export type WebhookDeliveryBody = z.infer<typeof webhookDeliveryBody>;

export const INGEST_ROUTES: readonly RouteContract[] = [
  ingestBatch,
  batchRoute('/v1/b', 'A batch of messages (Segment\'s mobile libraries\' path)'),
  ...MESSAGE_TYPES.map((type) => singleRoute(`/v1/${type}`, type)),
  ...Object.entries(SEGMENT_SHORT_PATHS).map(([letter, type]) => singleRoute(`/v1/${letter}`, type)),
  route({
    method: 'OPTIONS',
    path: '/v1/*',
    summary: 'CORS preflight of the ingest paths',
    description: 'Answered for an Origin that any workspace allows; the request that follows is checked against its own key\'s workspace.',
    tag: 'Ingest',
    security: PUBLIC,
    answers: { 204: { description: 'The Origin may post' }, ...errors(400, 403) },
  }),
  route({
    method: 'GET',
    path: '/js/v1/config/:key',
    summary: 'The tracking script\'s settings for a browser key',
    description:
      'Whether the workspace waits for consent, its attribution window, and how the tag drives TikTok\'s pixel (mode, pixel code, library, Limited Data Use, the rules the pixel may see). Public like the key; cached for 5 minutes.',
    tag: 'Ingest',
    security: PUBLIC,
    params: browserConfigParams,
    answers: {
      200: {
        description: 'The settings',
        schema: browserConfigView,
        example: {
          consentRequired: false,
          attributionDays: 7,
          pixel: { mode: 'load', code: 'C9ABCDEFGHIJKLMNOPQR', libraryUrl: 'https://analytics.tiktok.com/i18n/pixel/events.js', limitedDataUse: false },
          rules: [{ sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder'], valueSource: 'order_total', fixedValue: null, currency: null }],
        },
      },
      ...errors(404),
    },
  }),
  route({
    method: 'GET',
    path: '/js/v1/signalbox.js',
    summary: 'The browser tracking script',
    description: 'Public, cacheable for a day, gzipped when accepted, with an ETag.',
    tag: 'Ingest',
    security: PUBLIC,
    storage: false,
    answers: { 200: { description: 'The script', contentType: 'application/javascript' }, 304: { description: 'Not modified since the ETag of If-None-Match' } },
  }),
  route({
    method: 'POST',
    path: '/v1/webhooks/:sourceId',
    summary: 'A webhook source\'s delivery (Shopify, or any platform posting signed JSON)',
    description:
      'Authenticated by its signature over the raw body: Shopify\'s `X-Shopify-Hmac-Sha256` (with `X-Shopify-Topic`), or HMAC-SHA256 of the body in the source\'s signature header (`X-Signature` unless set). The body becomes Segment messages through the source\'s mapping, checked and stored as `/v1/batch` stores them, but for the size of one message: only the body limit (5 MiB) bounds it. A Shopify delivery\'s message ID is its source, topic and resource ID (and `updated_at` for a topic that recurs), so a body posted again under a new `X-Shopify-Webhook-Id` is stored once. Only signed deliveries take from the workspace\'s rate limit; requests the signature refuses have a smaller one per source (429 past it). A signed Shopify delivery is answered 200 even when it cannot be stored (Shopify retries anything else): 400 and 413 are for other sources, or a body over the limit.',
    tag: 'Ingest',
    security: PUBLIC,
    params: sourceParams,
    body: z.record(z.string(), z.unknown()).meta({ description: 'The platform\'s JSON, as it sends it' }),
    answers: { 200: { description: 'Stored', schema: webhookDeliveryBody }, ...errors(400, 401, 404, 413, 429, 503) },
  }),
  route({
    method: 'POST',
    path: '/v1/shopify/app-uninstalled',
    summary: "Shopify's app/uninstalled: a shop removed the Signalbox app (Connect Shopify)",
    description:
      "Subscribed by Connect Shopify. Authenticated by `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body with the app's secret (SHOPIFY_API_SECRET); `X-Shopify-Shop-Domain` names the shop. Signalbox forgets the connection and revokes its browser key; 200 also when the shop was not connected, so that Shopify does not retry.",
    tag: 'Shopify',
    security: PUBLIC,
    body: z.record(z.string(), z.unknown()).meta({ description: "Shopify's shop resource, as it sends it" }),
    answers: {
      200: { description: 'Recorded', schema: z.strictObject({ success: z.literal(true), disconnected: z.boolean().meta({ description: 'Whether a connection was forgotten' }) }) },
      ...errors(400, 401, 404, 413, 503),
    },
  }),
  route({
    method: 'POST',
    path: '/v1/shopify/compliance',
    summary: "Shopify's privacy topics for the Signalbox app (customers/data_request, customers/redact, shop/redact)",
    description:
      "The compliance webhook URL to set in the Signalbox app's settings in Shopify, for all three topics. Authenticated by `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body with the app's secret (SHOPIFY_API_SECRET), checked first: 401 when it does not match, as Shopify requires. `X-Shopify-Topic` names the topic; the body's `shop_domain` (else `X-Shopify-Shop-Domain`) the shop. The request is done as a Shopify source's own privacy delivery is, for the connected shop's source and every source Connect Shopify made for the shop that still exists, connected or not (shop/redact comes 48 hours after the app is uninstalled), once per body; 200 with nothing done when no source holds the shop's data. 400 for a body that is not such a request.",
    tag: 'Shopify',
    security: PUBLIC,
    body: z.record(z.string(), z.unknown()).meta({ description: "Shopify's compliance request, as it sends it" }),
    answers: {
      200: {
        description: 'Done, or nothing to do',
        schema: z.strictObject({
          success: z.literal(true),
          sources: z.array(z.string()).meta({ description: 'The sources the request was done for' }),
          note: z.string().meta({ description: 'What was done, for each source' }),
        }),
        example: { success: true, sources: ['src_3f9a1c2b7d4e8f60'], note: 'customers/redact: src_3f9a1c2b7d4e8f60: the customer is erased' },
      },
      ...errors(400, 401, 404, 413, 503),
    },
  }),
];
