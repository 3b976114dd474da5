import { z } from 'zod';

/** A required string field whose messages say whether it was missing, of the wrong type, or too long. */
export function requiredText(max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
}

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 currency code, any case in, upper case out. */
export const currencyCode = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .toUpperCase()
  .refine((code) => currencies.has(code), 'must be an ISO 4217 currency code such as USD or EUR');

/** The body of a JSON request: an object with only the listed fields. */
export function jsonBody<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, { error: 'must be a JSON object' });
}

const ORIGIN_RULE = 'must be an origin: http:// or https://, a host and an optional port, without a path (e.g. https://shop.example)';

/** A web origin as browsers send it in `Origin`, normalised the same way (lower-case host, no default port). */
export const webOrigin = z.string({ error: ORIGIN_RULE }).transform((text, context) => {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  const bare = url !== undefined && url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || !bare) {
    context.addIssue({ code: 'custom', message: ORIGIN_RULE });
    return z.NEVER;
  }
  return url.origin;
});
