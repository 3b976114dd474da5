import { z } from 'zod';
import { MAPPING_FIELDS, mappingFieldProblem, type WebhookMapping } from '../domain/webhooks/mapping';
import { jsonBody, requiredText } from './fields';

/** A webhook source's ID in a path (its delivery URL, the settings API's and the console's routes). */
export const sourceParams = z.object({ sourceId: z.string().min(1).max(100, 'must be at most 100 characters') });

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

export const previewBody = jsonBody({
  sourceId: z.string({ error: 'must be a string: the source whose mapping this is' }).max(100, 'must be at most 100 characters').optional(),
  mapping: mappingField,
  sample: z.string({ error: 'must be a string: the JSON body of one webhook, pasted' }).max(256 * 1024, 'must be at most 256 KB'),
});
