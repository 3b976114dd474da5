import { z } from 'zod';
import { jsonBody, requiredText } from './fields';

/** Advertiser IDs exceed 2^53, so they travel as strings. */
export const advertiserIdField = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string of digits (JSON numbers lose precision at this size)') })
  .trim()
  .regex(/^\d{1,32}$/, 'must be the advertiser ID: digits only, e.g. 7012345678901234567');

export const pixelCodeField = requiredText(64).regex(/^[A-Z0-9]+$/, 'must be the pixel code: upper-case letters and digits, e.g. CIDGJS3C77U7QBTMVDP0');

/* The bodies the settings API and the console share for choosing what the TikTok connection sends to. */

export const advertiserBody = jsonBody({ advertiserId: advertiserIdField });
export const pixelBody = jsonBody({ pixelCode: pixelCodeField });

/** The TikTok App ID (Events Manager → the app's data source) that mobile-app events are sent under; null clears it. */
export const appBody = jsonBody({
  appId: z
    .string({ error: 'must be a string of digits, or null to stop sending app events' })
    .trim()
    .regex(/^\d{1,32}$/, 'must be the TikTok App ID: digits only, e.g. 7123456789012345678')
    .nullable(),
});

/** An Offline or CRM Event Set of the advertiser, by its ID (Events Manager shows it); null stops sending to one. */
export const eventSetBody = jsonBody({
  eventSetId: z
    .string({ error: 'must be a string of digits, or null to send to no event set of this kind' })
    .trim()
    .regex(/^\d{1,32}$/, 'must be the event set ID: digits only, e.g. 7123456789012345678')
    .nullable(),
});
