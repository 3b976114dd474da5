import type { TikTokTrackRequest, TikTokUser } from '../adplatform/tiktok/types';
import { readAppContext, toAppEvent } from './app-context';
import { isCustomTikTokEvent } from './event-mapping';
import { hashEmail, hashPhone, sha256Hex } from './hashing';
import { meaningfulIdentifier } from './identifiers';
import { readDeviceContext, readEmail, readPhone, type TrackedMessage } from './message';
import type { ConversionReason } from './reasons';
import { buildTikTokEvent } from './tiktok-event';

/** Identifiers linked to the converting user within two hops (its own devices), used when the event carries none. */
export const LINKED_HASH_HOPS = 2;
const MAX_HASHES = 5;

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
    ttclid: string | null;
    ttp: string | null;
  };
  workspace: { testMode: boolean; testEventCode: string | null; defaultPhoneRegion: string };
  /** Undefined when the workspace has no TikTok connection. */
  connection: { pixelCode: string | null; appId: string | null } | undefined;
  /** SHA-256 emails and phones linked to the user, nearest first. */
  linked: { emails: readonly string[]; phones: readonly string[] };
}

export type ConversionRequest = { ready: true; payload: TikTokTrackRequest } | { ready: false; reason: ConversionReason };

function oneOrMany(values: readonly string[]): string | string[] | undefined {
  const unique = [...new Set(values)].slice(0, MAX_HASHES);
  return unique.length === 0 ? undefined : unique.length === 1 ? unique[0] : unique;
}

function hashedUser({ message, conversion, workspace, linked }: ConversionRequestInput): TikTokUser {
  const email = hashEmail(readEmail(message));
  const phone = hashPhone(readPhone(message), workspace.defaultPhoneRegion);
  const userId = meaningfulIdentifier(message.userId);
  const device = readDeviceContext(message);
  const user: TikTokUser = {
    email: oneOrMany(email !== undefined ? [email] : linked.emails),
    phone: oneOrMany(phone !== undefined ? [phone] : linked.phones),
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
 * The exact request that would carry this one conversion to TikTok: email and phone hashed (SHA-256 of TikTok's
 * normalisation), web events under the pixel, app events under the TikTok App ID (reference §1.1), the workspace's
 * `test_event_code` in test mode. A batch sends the same envelope with the events of several conversions.
 */
export function buildConversionRequest(input: ConversionRequestInput): ConversionRequest {
  const { message, conversion, workspace, connection } = input;
  if (connection === undefined) return { ready: false, reason: 'tiktok_not_connected' };
  const fromApp = conversion.eventSource === 'app';
  const sourceId = fromApp ? connection.appId : connection.pixelCode;
  if (sourceId === null) return { ready: false, reason: fromApp ? 'app_events_not_configured' : 'tiktok_connection_incomplete' };
  if (workspace.testMode && workspace.testEventCode === null) return { ready: false, reason: 'test_mode' };

  const webEvent = buildTikTokEvent(
    message,
    {
      tiktokEvent: conversion.tiktokEvent,
      custom: isCustomTikTokEvent(conversion.tiktokEvent),
      eventId: conversion.eventId,
      eventTime: conversion.eventTime,
      value: conversion.value,
      currency: conversion.currency,
    },
    hashedUser(input),
  );
  const event = fromApp ? toAppEvent(webEvent, readAppContext(message), sourceId) : webEvent;
  const payload: TikTokTrackRequest = { event_source: conversion.eventSource, event_source_id: sourceId, data: [event] };
  if (workspace.testMode && workspace.testEventCode !== null) payload.test_event_code = workspace.testEventCode;
  return { ready: true, payload };
}
