import { readPersonKeys } from './advanced-matching';
import { readAppContext, toAppEvent } from './app-context';
import type { Click } from './attribution';
import { isCustomTikTokEvent } from './event-mapping';
import { hashEach, hashEmail, hashExternalId, hashPhone } from './hashing';
import { chooseMatchKeys, type MatchKey, type MatchKeySources, type VisitorKeys } from './match-keys';
import { pageUrl, readDeviceContext, readEmails, readExternalIds, readPhones, readTtp, type TrackedMessage } from './message';
import type { TikTokTrackRequest } from './tiktok-wire';
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
    eventSource: 'web' | 'app';
    /** The attributed click and `_ttp`, as identity resolution found them. */
    click: Pick<Click, 'ttclid' | 'anonymousId' | 'source'> | null;
    ttp: string | null;
  };
  /** `limitedDataUse`: TikTok's Limited Data Use flag on the event (reference §1.2 `limited_data_use`); absent, off. */
  workspace: { testMode: boolean; testEventCode: string | null; defaultPhoneRegion: string; attributionWindowDays: number; limitedDataUse?: boolean };
  /** Undefined when the workspace has no TikTok connection. */
  connection: { pixelCode: string | null; appId: string | null } | undefined;
  /** SHA-256 emails and phones linked to the user, nearest first. */
  linked: { emails: readonly string[]; phones: readonly string[] };
  /** The converting visitor's profile first, then the one that clicked: their `_ttp` and latest page view's device. */
  visitors: readonly VisitorKeys[];
}

export type ConversionRequest = { ready: true; payload: TikTokTrackRequest; matchKeys: MatchKeySources } | { ready: false; reason: ConversionReason };

const DEVICE_KEYS: readonly MatchKey[] = ['idfa', 'idfv', 'gaid'];

/** The sources of the keys the event really carries: app device IDs come from the message, a page only if one is sent. */
function sentKeySources(sources: MatchKeySources, event: { user?: object; page?: object }): MatchKeySources {
  const sent: MatchKeySources = { ...sources };
  for (const key of DEVICE_KEYS) if (event.user !== undefined && key in event.user) sent[key] = { source: 'message' };
  if (event.page === undefined) delete sent.page_url;
  return sent;
}

/**
 * The exact request that would carry this one conversion to TikTok, and where each of its match keys came from: email
 * and phone hashed (SHA-256 of TikTok's normalisation), web events under the pixel, app events under the TikTok App ID
 * (reference §1.1), the workspace's `test_event_code` in test mode, `limited_data_use` when the workspace asks. A batch sends the same envelope with the events of
 * several conversions.
 */
export function buildConversionRequest(input: ConversionRequestInput): ConversionRequest {
  const { message, conversion, workspace, connection } = input;
  if (connection === undefined) return { ready: false, reason: 'tiktok_not_connected' };
  const fromApp = conversion.eventSource === 'app';
  const sourceId = fromApp ? connection.appId : connection.pixelCode;
  if (sourceId === null) return { ready: false, reason: fromApp ? 'app_events_not_configured' : 'tiktok_connection_incomplete' };
  if (workspace.testMode && workspace.testEventCode === null) return { ready: false, reason: 'test_mode' };

  const device = readDeviceContext(message);
  const keys = chooseMatchKeys({
    message: {
      emails: hashEach(readEmails(message), hashEmail),
      phones: hashEach(readPhones(message), (raw) => hashPhone(raw, workspace.defaultPhoneRegion)),
      externalIds: hashEach([message.userId, ...readExternalIds(message)], hashExternalId),
      person: readPersonKeys(message),
      ip: device.ip,
      userAgent: device.userAgent,
      locale: device.locale,
      pageUrl: pageUrl(message),
      ttp: readTtp(message),
    },
    linked: input.linked,
    click: conversion.click ?? undefined,
    ttp: conversion.ttp ?? undefined,
    visitors: input.visitors,
    eventTime: conversion.eventTime,
    attributionWindowDays: workspace.attributionWindowDays,
  });
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
  const event = fromApp ? toAppEvent(webEvent, readAppContext(message), sourceId) : webEvent;
  if (workspace.limitedDataUse === true) event.limited_data_use = true;
  const payload: TikTokTrackRequest = { event_source: conversion.eventSource, event_source_id: sourceId, data: [event] };
  if (workspace.testMode && workspace.testEventCode !== null) payload.test_event_code = workspace.testEventCode;
  return { ready: true, payload, matchKeys: sentKeySources(keys.sources, event) };
}
