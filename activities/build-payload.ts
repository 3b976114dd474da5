import { buildConversionRequest, LINKED_HASH_HOPS } from '../domain/conversion-request';
import { meaningfulIdentifier } from '../domain/identifiers';
import { messageIdentities } from '../domain/observation';
import type { ActivityDeps } from './deps';
import { loadConversionContext } from './load';
import type { PayloadResult } from './types';
import { ownersFirst } from './visitor-keys';

/**
 * Step 4 of the per-conversion workflow (kept for runs started before the group workflow): hash email and phone and
 * build the exact request TikTok will receive, with where each match key came from. The payload is stored on the
 * conversion, so operators see byte for byte what was sent; plaintext never leaves here.
 */
export async function hashUserData(deps: ActivityDeps, conversionId: string): Promise<PayloadResult> {
  const { conversion, message, workspace } = await loadConversionContext(deps, conversionId);
  const seeds = messageIdentities(message, workspace.defaultPhoneRegion);
  const linked = (kind: 'email_sha256' | 'phone_sha256') => deps.repos.profiles.reachable(workspace.id, seeds, kind, LINKED_HASH_HOPS);
  const ownId = meaningfulIdentifier(message.anonymousId);
  const clickId = conversion.click_anonymous_id ?? undefined;
  const rows = await deps.repos.profiles.visitors(workspace.id, [ownId, clickId].filter((id): id is string => id !== undefined));
  const built = buildConversionRequest({
    message,
    conversion: {
      tiktokEvent: conversion.tiktok_event,
      eventId: conversion.event_id,
      eventTime: conversion.event_time,
      value: conversion.value,
      currency: conversion.currency,
      eventSource: conversion.event_source,
      ttclid: conversion.ttclid,
      clickAnonymousId: conversion.click_anonymous_id,
      ttp: conversion.ttp,
    },
    workspace,
    connection: await deps.repos.tiktokConnections.summary(workspace.id),
    linked: { emails: await linked('email_sha256'), phones: await linked('phone_sha256') },
    visitors: ownersFirst(rows, ownId, clickId),
  });
  if (!built.ready) return built;
  await deps.repos.conversions.update(conversionId, {
    request_payload: built.payload as unknown as Record<string, unknown>,
    test_mode: workspace.testMode,
    match_keys: built.matchKeys,
  });
  return { ready: true, testMode: workspace.testMode };
}
