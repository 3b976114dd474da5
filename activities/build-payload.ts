import type { TikTokTrackRequest, TikTokUser } from '../adplatform/tiktok/types';
import type { ConversionRow } from '../db/types';
import type { Workspace } from '../db/repositories/workspaces';
import { isCustomTikTokEvent } from '../domain/event-mapping';
import { hashEmail, hashPhone, sha256Hex } from '../domain/hashing';
import { meaningfulIdentifier } from '../domain/identifiers';
import { readDeviceContext, readEmail, readPhone, type TrackedMessage } from '../domain/message';
import { messageIdentities } from '../domain/observation';
import { buildTikTokEvent } from '../domain/tiktok-event';
import { readAppContext, toAppEvent } from '../domain/app-context';
import type { ActivityDeps } from './deps';
import { loadConversionContext } from './load';
import type { PayloadResult } from './types';

/** Identifiers linked to the converting user within two hops (its own devices), used when the event carries none. */
const LINKED_HASH_HOPS = 2;
const MAX_HASHES = 5;

function oneOrMany(values: string[]): string | string[] | undefined {
  const unique = [...new Set(values)].slice(0, MAX_HASHES);
  return unique.length === 0 ? undefined : unique.length === 1 ? unique[0] : unique;
}

async function hashedUser(deps: ActivityDeps, message: TrackedMessage, conversion: ConversionRow, workspace: Workspace): Promise<TikTokUser> {
  const seeds = messageIdentities(message, workspace.defaultPhoneRegion);
  const linked = async (kind: 'email_sha256' | 'phone_sha256') => deps.repos.profiles.reachable(workspace.id, seeds, kind, LINKED_HASH_HOPS);
  const email = hashEmail(readEmail(message));
  const phone = hashPhone(readPhone(message), workspace.defaultPhoneRegion);
  const userId = meaningfulIdentifier(message.userId);
  const device = readDeviceContext(message);
  const user: TikTokUser = {
    email: oneOrMany(email !== undefined ? [email] : await linked('email_sha256')),
    phone: oneOrMany(phone !== undefined ? [phone] : await linked('phone_sha256')),
    external_id: userId === undefined ? undefined : sha256Hex(userId),
    ttclid: conversion.ttclid ?? undefined,
    ttp: conversion.ttp ?? undefined,
    ip: device.ip,
    user_agent: device.userAgent,
    locale: device.locale,
  };
  return Object.fromEntries(Object.entries(user).filter(([, value]) => value !== undefined)) as TikTokUser;
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

  const webEvent = buildTikTokEvent(
    message,
    {
      tiktokEvent: conversion.tiktok_event,
      custom: isCustomTikTokEvent(conversion.tiktok_event),
      eventId: conversion.event_id,
      eventTime: conversion.event_time,
      value: conversion.value,
      currency: conversion.currency,
    },
    await hashedUser(deps, message, conversion, workspace),
  );
  const event = fromApp ? toAppEvent(webEvent, readAppContext(message), sourceId) : webEvent;
  const payload: TikTokTrackRequest = { event_source: conversion.event_source, event_source_id: sourceId, data: [event] };
  if (workspace.testMode && workspace.testEventCode !== null) payload.test_event_code = workspace.testEventCode;
  await deps.repos.conversions.update(conversionId, { request_payload: payload as unknown as Record<string, unknown>, test_mode: workspace.testMode });
  return { ready: true, testMode: workspace.testMode };
}
