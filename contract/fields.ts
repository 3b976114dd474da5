import { z } from 'zod';
import { conversionSource } from './views';

/**
 * What a name or any other one-line text may not hold: control characters (C0, among them line breaks and tabs; DEL;
 * C1), Unicode's line and paragraph separators, and the bidirectional overrides and isolates that make text read as
 * something else. Names go into mail subjects, change logs and CSV files, where a line break starts a header or a row.
 */
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** `text` (a string schema) refusing control characters: the one rule of every name-like field. */
export const singleLine = (text: z.ZodString) => text.refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain line breaks, tabs or other control characters');

/** One line of text: trimmed, at most `max` characters, without control characters; may be empty. */
export function lineText(max: number) {
  return singleLine(
    z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .trim()
      .max(max, `must be at most ${max} characters`),
  );
}

/** A required one-line field (a name, an address) whose messages say whether it was missing, of the wrong type, empty, too long or held control characters. */
export function requiredText(max: number) {
  return lineText(max).min(1, 'must not be empty');
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

/** A conversion's source as a filter: the website, an app, offline (a store or the phone) or a CRM. */
export const sourceFilterField = z.enum(conversionSource.options, { error: `must be one of ${conversionSource.options.join(', ')}` }).optional();
