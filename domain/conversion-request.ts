import { readPersonKeys } from './advanced-matching';
import { readAppContext, toAppEvent } from './app-context';
import type { Click } from './attribution';
import { isCustomTikTokEvent } from './event-mapping';
import { matchedOnPerson, readLead } from './event-source';
import { hashEach, hashEmail, hashExternalId, hashPhone } from './hashing';
import { chooseMatchKeys, type MatchKey, type MatchKeySources, type VisitorKeys } from './match-keys';
import { pageUrl, readDeviceContext, readEmails, readExternalIds, readPhones, readTtp, type TrackedMessage } from './message';
import type { TikTokEvent, TikTokEventSource, TikTokLead, TikTokTrackRequest } from './tiktok-wire';
import type { ConversionReason } from './reasons';
import { buildTikTokEvent } from './tiktok-event';

/** Identifiers linked to the converting user within two hops (its own devices), used when the event carries none. */
export const LINKED_HASH_HOPS = 2;

export interface ConversionRequestInput {
  message: TrackedMessage;
  conversion: {
    tiktokEvent: string;
    eventId: string;
    eventTime: Date;
    value: number | null;
    currency: string | null;
    eventSource: TikTokEventSource;
    /** The attributed click and `_ttp`, as identity resolution found them. */
    click: Pick<Click, 'ttclid' | 'anonymousId' | 'source'> | null;
    ttp: string | null;
  };
  /** `limitedDataUse`: TikTok's Limited Data Use flag on the event (reference §1.2 `limited_data_use`); absent, off. */
  workspace: { testMode: boolean; testEventCode: string | null; defaultPhoneRegion: string; attributionWindowDays: number; limitedDataUse?: boolean };
  /** Undefined when the workspace has no TikTok connection. */
  connection: { pixelCode: string | null; appId: string | null; offlineEventSetId: string | null; crmEventSetId: string | null } | undefined;
  /** SHA-256 emails and phones linked to the user, nearest first. */
  linked: { emails: readonly string[]; phones: readonly string[] };
  /** The converting visitor's profile first, then the one that clicked: their `_ttp` and latest page view's device. */
  visitors: readonly VisitorKeys[];
}

export type ConversionRequest = { ready: true; payload: TikTokTrackRequest; matchKeys: MatchKeySources } | { ready: false; reason: ConversionReason };

const DEVICE_KEYS: readonly MatchKey[] = ['idfa', 'idfv', 'gaid'];

type Connection = NonNullable<ConversionRequestInput['connection']>;

/** Where each event source goes (reference §1.1 `event_source_id`), and why a conversion stops when the connection has none. */
const SOURCE_IDS: Record<TikTokEventSource, { id: (c: Connection) => string | null; missing: ConversionReason }> = {
  web: { id: (c) => c.pixelCode, missing: 'tiktok_connection_incomplete' },
  app: { id: (c) => c.appId, missing: 'app_events_not_configured' },
  offline: { id: (c) => c.offlineEventSetId, missing: 'offline_events_not_configured' },
  crm: { id: (c) => c.crmEventSetId, missing: 'crm_events_not_configured' },
};

/** The person's keys: the only ones an offline or CRM event is matched on. */
const PERSON_MATCH_KEYS = ['email', 'phone', 'external_id'] as const;

/** The sources of the keys the event really carries: app device IDs come from the message, a page only if one is sent. */
function sentKeySources(sources: MatchKeySources, event: { user?: object; page?: object }): MatchKeySources {
  const sent: MatchKeySources = { ...sources };
  for (const key of DEVICE_KEYS) if (event.user !== undefined && key in event.user) sent[key] = { source: 'message' };
  if (event.page === undefined) delete sent.page_url;
  return sent;
}

/**
 * The exact request that would carry this one conversion to TikTok, and where each of its match keys came from: email
 * and phone hashed (SHA-256 of TikTok's normalisation), web events under the pixel, app events under the TikTok App ID,
 * offline and CRM events under their Event Sets with the person's keys only, a CRM event with its lead (reference §1.1,
 * §1.2), the workspace's `test_event_code` in test mode, `limited_data_use` when the workspace asks. A batch sends the same envelope with the events of
 * several conversions.
 */
export function buildConversionRequest(input: ConversionRequestInput): ConversionRequest {
  const { message, conversion, workspace, connection } = input;
  if (connection === undefined) return { ready: false, reason: 'tiktok_not_connected' };
  const source = conversion.eventSource;
  const sourceId = SOURCE_IDS[source].id(connection);
  if (sourceId === null) return { ready: false, reason: SOURCE_IDS[source].missing };
  if (workspace.testMode && workspace.testEventCode === null) return { ready: false, reason: 'test_mode' };
  const lead = source === 'crm' ? readLead(message) : undefined;
  if (source === 'crm' && lead === undefined) return { ready: false, reason: 'lead_id_missing' };

  const onPerson = matchedOnPerson(source);
  const device = readDeviceContext(message);
  const personKeys = {
    emails: hashEach(readEmails(message), hashEmail),
    phones: hashEach(readPhones(message), (raw) => hashPhone(raw, workspace.defaultPhoneRegion)),
    externalIds: hashEach([message.userId, ...readExternalIds(message)], hashExternalId),
  };
  // Offline and CRM events name no page, click, cookie or device (reference §1.2, §1.3): only the person's keys.
  const keys = chooseMatchKeys({
    message: onPerson
      ? personKeys
      : { ...personKeys, person: readPersonKeys(message), ip: device.ip, userAgent: device.userAgent, locale: device.locale, pageUrl: pageUrl(message), ttp: readTtp(message) },
    linked: input.linked,
    click: onPerson ? undefined : (conversion.click ?? undefined),
    ttp: onPerson ? undefined : (conversion.ttp ?? undefined),
    visitors: onPerson ? [] : input.visitors,
    eventTime: conversion.eventTime,
    attributionWindowDays: workspace.attributionWindowDays,
  });
  if (onPerson && PERSON_MATCH_KEYS.every((key) => keys.user[key] === undefined)) return { ready: false, reason: 'no_person_keys' };
  const webEvent = buildTikTokEvent(
    message,
    {
      tiktokEvent: conversion.tiktokEvent,
      custom: isCustomTikTokEvent(conversion.tiktokEvent),
      eventId: conversion.eventId,
      eventTime: conversion.eventTime,
      value: conversion.value,
      currency: conversion.currency,
      fallbackPageUrl: keys.pageUrl,
    },
    keys.user,
  );
  const event = sourceEvent(webEvent, source, { message, sourceId, lead });
  if (workspace.limitedDataUse === true) event.limited_data_use = true;
  const payload: TikTokTrackRequest = { event_source: source, event_source_id: sourceId, data: [event] };
  if (workspace.testMode && workspace.testEventCode !== null) payload.test_event_code = workspace.testEventCode;
  return { ready: true, payload, matchKeys: sentKeySources(keys.sources, event) };
}

/** A web-shaped event as its source takes it: an app's with its app, an offline or CRM one without a page, a CRM one with its lead. */
function sourceEvent(webEvent: TikTokEvent, source: TikTokEventSource, facts: { message: TrackedMessage; sourceId: string; lead: TikTokLead | undefined }): TikTokEvent {
  if (source === 'app') return toAppEvent(webEvent, readAppContext(facts.message), facts.sourceId);
  if (source === 'web') return webEvent;
  const { page: _page, ...event } = webEvent;
  return facts.lead === undefined ? event : { ...event, lead: facts.lead };
}
