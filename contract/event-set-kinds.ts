/*
 * The advertiser's event sets besides its pixels and app: the Offline Event Set (store and phone sales) and the CRM
 * Event Set. Imports nothing, so that the console takes these values without zod.
 */

export const EVENT_SET_KINDS = ['offline', 'crm'] as const;
export type EventSetKind = (typeof EVENT_SET_KINDS)[number];

/** Each kind as TikTok's Events Manager names it. */
export const EVENT_SET_NAMES: Record<EventSetKind, string> = { offline: 'Offline Event Set', crm: 'CRM Event Set' };

/** Each kind's path under `…/tiktok` (the settings API's and the console's): `/offline-event-set` chooses one, `/offline-event-sets` lists them. */
export const eventSetPath = (kind: EventSetKind) => `/${kind}-event-set`;
