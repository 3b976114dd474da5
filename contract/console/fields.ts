import { z } from 'zod';
import { requiredText, sourceFilterField } from '../fields';
import { RECOMMENDED_PARAMETERS } from '../../domain/recommended-parameters';

export const emailField = requiredText(320).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address, e.g. jo@shop.example');
/** Checked for strength where a password is chosen (accounts/passwords.ts), not where one is typed in. */
export const passwordField = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).min(1, 'is required').max(256, 'must be at most 256 characters');
export const roleField = z.enum(['owner', 'editor', 'viewer'], { error: 'must be owner, editor or viewer' });

/** One query parameter, given once. */
export const queryText = (max = 200) => z.string({ error: 'must be given once' }).trim().max(max, `must be at most ${max} characters`);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const day = (name: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required: the ${name} day, as YYYY-MM-DD` : 'must be given once') })
    .refine((text) => DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'must be a date as YYYY-MM-DD');

/** A period of whole days in a time zone, as the console's pages ask for it. */
export const periodFields = {
  from: day('first'),
  to: day('last'),
  timeZone: z.string({ error: 'must be given once' }).refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin').default('UTC'),
};

/** The Conversions page's filter, as its table and its "Send again" by filter both read it. */
export const conversionFilterFields = {
  status: z.enum(['pending', 'delivered', 'skipped', 'failed'], { error: 'must be one of pending, delivered, skipped, failed' }).optional(),
  source: sourceFilterField,
  reason: queryText(100).optional(),
  tiktokEvent: queryText(100).optional(),
  q: queryText(300).optional(),
  tiktokCode: z.coerce.number({ error: 'must be TikTok’s numeric code, such as 40002' }).int('must be TikTok’s numeric code, such as 40002').optional(),
  missing: z.enum(RECOMMENDED_PARAMETERS, { error: `must be one of ${RECOMMENDED_PARAMETERS.join(', ')}` }).optional(),
  repeated: z.enum(['true'], { error: 'must be true, or not given' }).optional(),
  withoutClick: z.enum(['true'], { error: 'must be true, or not given' }).optional(),
  from: periodFields.from.optional(),
  to: periodFields.to.optional(),
  timeZone: periodFields.timeZone,
};

