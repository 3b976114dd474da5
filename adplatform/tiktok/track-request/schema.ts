import { z } from 'zod';
import { isCustomTikTokEvent } from '../../../domain/event-mapping';
import { TIKTOK_LIMITS } from '../config';
import { SUPPORTED_CURRENCIES } from './currencies';

/**
 * TikTok's documented rules for an `event/track` body (§1, §10.4 of the reference), checked by the fake TikTok and by
 * delivery before sending. Unknown keys are accepted, as TikTok accepts custom properties. Messages say what is
 * wrong; the validator prefixes the field path.
 */

const EVENT_SOURCES = ['web', 'app', 'offline', 'crm'] as const;
/** §1.4: `product` when content IDs are SKUs, `product_group` when they are item groups. */
const CONTENT_TYPES = ['product', 'product_group'] as const;
const MAX_EVENTS_PER_REQUEST = TIKTOK_LIMITS.maxEventsPerTrackRequest;
/** Unix seconds stay below 1e11 until the year 5138: anything larger is a millisecond timestamp. */
const LARGEST_SECONDS = 1e11;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Advanced matching (§1.3): one hashed value each for names and ZIP code; city, state and country go in plain text ("not hashed by RS/SEG"). */
const HASHED_PERSON_FIELDS = ['first_name', 'last_name', 'zip_code'] as const;
const PLAIN_PERSON_FIELDS = ['city', 'state', 'country'] as const;

const NOT_STRING = 'not a valid string';
const NOT_OBJECT = 'must be an object';
const string = () => z.string({ error: NOT_STRING });

export interface TrackSchemaOptions {
  /** Reject email, phone, external_id, first and last name and ZIP code values that are not SHA-256 lower-case hex. */
  requireHashedPii: boolean;
}

function hashedValue(requireHashedPii: boolean) {
  return requireHashedPii
    ? string().regex(SHA256_HEX, 'must be a SHA-256 hash (64 lower-case hex characters); plaintext is not accepted')
    : string();
}

/** email, phone and external_id take one hashed value or several (§1.3). */
function hashedIdentifier(requireHashedPii: boolean) {
  const value = hashedValue(requireHashedPii);
  return z.union([value, z.array(value)], { error: 'must be a string or an array of strings' });
}

export function trackRequestSchema({ requireHashedPii }: TrackSchemaOptions) {
  const user = z.looseObject(
    {
      email: hashedIdentifier(requireHashedPii).optional(),
      phone: hashedIdentifier(requireHashedPii).optional(),
      external_id: hashedIdentifier(requireHashedPii).optional(),
      ...Object.fromEntries(HASHED_PERSON_FIELDS.map((field) => [field, hashedValue(requireHashedPii).optional()])),
      ...Object.fromEntries(PLAIN_PERSON_FIELDS.map((field) => [field, string().optional()])),
      ttclid: string().optional(),
      ttp: string().optional(),
      ip: string().optional(),
      user_agent: string().optional(),
      locale: string().optional(),
    },
    { error: NOT_OBJECT },
  );

  const content = z.looseObject(
    {
      content_id: string().optional(),
      quantity: z.int({ error: 'must be an integer' }).optional(),
      price: z.number({ error: 'must be a number' }).optional(),
    },
    { error: NOT_OBJECT },
  );

  const properties = z.looseObject(
    {
      value: z.number({ error: 'must be a number' }).optional(),
      currency: z.enum(SUPPORTED_CURRENCIES, { error: 'must be a supported ISO 4217 currency code, e.g. USD' }).optional(),
      content_type: z.enum(CONTENT_TYPES, { error: `must be one of ${CONTENT_TYPES.join(', ')}` }).optional(),
      contents: z.array(content, { error: 'must be an array' }).optional(),
      content_ids: z.array(string(), { error: 'must be an array of strings' }).optional(),
      num_items: z.int({ error: 'must be an integer' }).optional(),
    },
    { error: NOT_OBJECT },
  );

  const page = z.looseObject({ url: string().optional(), referrer: string().optional() }, { error: NOT_OBJECT });
  // §1.2: app events name their app; `app_id` is the TikTok App ID.
  const app = z.looseObject({ app_id: string().min(1, 'must not be empty'), app_name: string().optional(), app_version: string().optional() }, { error: NOT_OBJECT });

  // §1.2: a CRM event names its lead, the CRM's record of the person.
  const lead = z.looseObject({ lead_id: string().min(1, 'must not be empty'), lead_event_source: string().optional() }, { error: NOT_OBJECT });

  const event = z.looseObject(
    {
      event: string().min(1, 'must not be empty'),
      event_time: z
        .int({ error: 'must be an integer Unix time in seconds' })
        .positive('must be a positive Unix time in seconds')
        .max(LARGEST_SECONDS, 'looks like milliseconds; send whole seconds'),
      event_id: string().optional(),
      user: user.optional(),
      page: page.optional(),
      properties: properties.optional(),
      app: app.optional(),
      lead: lead.optional(),
    },
    { error: NOT_OBJECT },
  );

  return z.looseObject(
    {
      event_source: z.enum(EVENT_SOURCES, { error: `must be one of ${EVENT_SOURCES.join(', ')}` }),
      event_source_id: string().min(1, 'must not be empty'),
      test_event_code: string().optional(),
      data: z
        .array(event, { error: 'must be an array of events' })
        .min(1, 'must contain at least one event')
        .max(MAX_EVENTS_PER_REQUEST, {
          error: (issue) =>
            `must not contain more than ${MAX_EVENTS_PER_REQUEST} events (got ${(issue.input as unknown[]).length})`,
        }),
    },
    { error: 'must be a JSON object' },
  ).superRefine((request, context) => {
    const source = request.event_source;
    request.data.forEach((event, index) => {
      const issue = (path: PropertyKey[], message: string, input: unknown) => context.addIssue({ code: 'custom', path: ['data', index, ...path], message, input });
      if (source === 'app' && event.app === undefined) issue(['app', 'app_id'], 'is required for app events', undefined);
      // §1.2, §4.2: an Offline Event Set takes standard events only, a CRM Event Set custom events only.
      const custom = isCustomTikTokEvent(event.event);
      if (source === 'offline' && custom) issue(['event'], 'offline events must be standard events', event.event);
      if (source === 'crm' && !custom) issue(['event'], 'crm events must be custom events, not standard ones', event.event);
      if (source === 'crm' && event.lead === undefined) issue(['lead', 'lead_id'], 'is required for crm events', undefined);
    });
  });
}

export type TrackRequest = z.infer<ReturnType<typeof trackRequestSchema>>;
