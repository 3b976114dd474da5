/*
 * A conversion's sources and rules' destinations in words, which the console shows and the server writes alike. Imports nothing,
 * so that the console takes the words without zod in its first load.
 */

/** Where a conversion happened, and so the TikTok event source it goes to (the Events API's `event_source`). */
export const CONVERSION_SOURCES = ['web', 'app', 'offline', 'crm'] as const;
export type ConversionSource = (typeof CONVERSION_SOURCES)[number];

/** Each source as a shop owner reads it. */
export const CONVERSION_SOURCE_NAMES: Record<ConversionSource, string> = { web: 'Website', app: 'App', offline: 'Offline (store and phone)', crm: 'CRM' };

/** Where a rule sends its conversions, as a shop owner reads it. */
export const RULE_DESTINATION_NAMES: Record<'auto' | ConversionSource, string> = { auto: 'Automatic', ...CONVERSION_SOURCE_NAMES };
