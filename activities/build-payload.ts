import { buildConversionRequest, LINKED_HASH_HOPS } from '../domain/conversion-request';
import { messageIdentities } from '../domain/observation';
import type { ActivityDeps } from './deps';
import { loadConversionContext } from './load';
import type { PayloadResult } from './types';

/**
 * Step 4 of the per-conversion workflow (kept for runs started before the group workflow): hash email and phone and
 * build the exact request TikTok will receive. The payload is stored on the conversion, so operators see byte for
 * byte what was sent; plaintext never leaves here.
 */
export async function hashUserData(deps: ActivityDeps, conversionId: string): Promise<PayloadResult> {
  const { conversion, message, workspace } = await loadConversionContext(deps, conversionId);
  const seeds = messageIdentities(message, workspace.defaultPhoneRegion);
  const linked = (kind: 'email_sha256' | 'phone_sha256') => deps.repos.profiles.reachable(workspace.id, seeds, kind, LINKED_HASH_HOPS);
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
      ttp: conversion.ttp,
    },
    workspace,
    connection: await deps.repos.tiktokConnections.summary(workspace.id),
    linked: { emails: await linked('email_sha256'), phones: await linked('phone_sha256') },
  });
  if (!built.ready) return built;
  await deps.repos.conversions.update(conversionId, { request_payload: built.payload as unknown as Record<string, unknown>, test_mode: workspace.testMode });
  return { ready: true, testMode: workspace.testMode };
}
