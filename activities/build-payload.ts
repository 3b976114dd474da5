import type { TikTokTrackRequest } from '../adplatform/tiktok/types';
import type { ConversionRow, MatchKey, MatchKeySources, VisitorRow } from '../db/types';
import type { Workspace } from '../db/repositories/workspaces';
import { isCustomTikTokEvent } from '../domain/event-mapping';
import { hashEmail, hashPhone, sha256Hex } from '../domain/hashing';
import { meaningfulIdentifier } from '../domain/identifiers';
import { chooseMatchKeys, type MatchKeys, type VisitorKeys } from '../domain/match-keys';
import { pageUrl, readDeviceContext, readEmail, readPhone, readTtp, type TrackedMessage } from '../domain/message';
import { messageIdentities } from '../domain/observation';
import { buildTikTokEvent } from '../domain/tiktok-event';
import { readAppContext, toAppEvent } from '../domain/app-context';
import type { ActivityDeps } from './deps';
import { loadConversionContext } from './load';
import type { PayloadResult } from './types';

/** Identifiers linked to the converting user within two hops (its own devices), used when the event carries none. */
const LINKED_HASH_HOPS = 2;

function visitorKeys(row: VisitorRow): VisitorKeys {
  return {
    anonymousId: row.anonymous_id,
    ttp: row.ttp ?? undefined,
    ip: row.device_ip ?? undefined,
    userAgent: row.device_user_agent ?? undefined,
    pageUrl: row.device_page_url ?? undefined,
    deviceSeenAt: row.device_seen_at ?? undefined,
  };
}

async function matchKeys(deps: ActivityDeps, message: TrackedMessage, conversion: ConversionRow, workspace: Workspace): Promise<MatchKeys> {
  const region = workspace.defaultPhoneRegion;
  const email = hashEmail(readEmail(message));
  const phone = hashPhone(readPhone(message), region);
  const seeds = messageIdentities(message, region);
  const linked = async (present: string | undefined, kind: 'email_sha256' | 'phone_sha256') =>
    present !== undefined ? [] : deps.repos.profiles.reachable(workspace.id, seeds, kind, LINKED_HASH_HOPS);
  const userId = meaningfulIdentifier(message.userId);
  const device = readDeviceContext(message);
  // The converting visitor's device first, then the one that clicked.
  const owners = [meaningfulIdentifier(message.anonymousId), conversion.click_anonymous_id ?? undefined].filter((id): id is string => id !== undefined);
  const rows = await deps.repos.profiles.visitors(workspace.id, [...new Set(owners)]);
  const visitors = owners.flatMap((id) => rows.filter((row) => row.anonymous_id === id).map(visitorKeys));
  return chooseMatchKeys({
    message: {
      email,
      phone,
      externalId: userId === undefined ? undefined : sha256Hex(userId),
      ip: device.ip,
      userAgent: device.userAgent,
      locale: device.locale,
      pageUrl: pageUrl(message),
      ttp: readTtp(message),
    },
    linked: { emails: await linked(email, 'email_sha256'), phones: await linked(phone, 'phone_sha256') },
    click: conversion.ttclid !== null && conversion.click_anonymous_id !== null ? { ttclid: conversion.ttclid, anonymousId: conversion.click_anonymous_id } : undefined,
    ttp: conversion.ttp ?? undefined,
    visitors,
    eventTime: conversion.event_time,
    attributionWindowDays: workspace.attributionWindowDays,
  });
}

/**
 * Step 4: hash email and phone (SHA-256, TikTok's normalisation) and build the exact request TikTok will receive.
 * The payload is stored on the conversion, so operators see byte for byte what was sent; plaintext never leaves here.
 */
export async function hashUserData(deps: ActivityDeps, conversionId: string): Promise<PayloadResult> {
  const { conversion, message, workspace } = await loadConversionContext(deps, conversionId);
  const connection = await deps.repos.tiktokConnections.summary(workspace.id);
  if (connection === undefined) return { ready: false, reason: 'tiktok_not_connected' };
  const fromApp = conversion.event_source === 'app';
  // Web events are sent under the pixel, app events under the TikTok App ID (reference §1.1).
  const sourceId = fromApp ? connection.appId : connection.pixelCode;
  if (sourceId === null) return { ready: false, reason: fromApp ? 'app_events_not_configured' : 'tiktok_connection_incomplete' };
  if (workspace.testMode && workspace.testEventCode === null) return { ready: false, reason: 'test_mode' };

  const keys = await matchKeys(deps, message, conversion, workspace);
  const webEvent = buildTikTokEvent(
    message,
    {
      tiktokEvent: conversion.tiktok_event,
      custom: isCustomTikTokEvent(conversion.tiktok_event),
      eventId: conversion.event_id,
      eventTime: conversion.event_time,
      value: conversion.value,
      currency: conversion.currency,
      fallbackPageUrl: keys.pageUrl,
    },
    keys.user,
  );
  const event = fromApp ? toAppEvent(webEvent, readAppContext(message), sourceId) : webEvent;
  const payload: TikTokTrackRequest = { event_source: conversion.event_source, event_source_id: sourceId, data: [event] };
  if (workspace.testMode && workspace.testEventCode !== null) payload.test_event_code = workspace.testEventCode;
  await deps.repos.conversions.update(conversionId, {
    request_payload: payload as unknown as Record<string, unknown>,
    test_mode: workspace.testMode,
    match_keys: sentKeySources(keys.sources, event),
  });
  return { ready: true, testMode: workspace.testMode };
}

const DEVICE_KEYS: readonly MatchKey[] = ['idfa', 'idfv', 'gaid'];

/** The sources of the keys the event really carries: app device IDs come from the message, a page only if one is sent. */
function sentKeySources(sources: MatchKeySources, event: { user?: object; page?: object }): MatchKeySources {
  const sent: MatchKeySources = { ...sources };
  for (const key of DEVICE_KEYS) if (event.user !== undefined && key in event.user) sent[key] = { source: 'message' };
  if (event.page === undefined) delete sent.page_url;
  return sent;
}
